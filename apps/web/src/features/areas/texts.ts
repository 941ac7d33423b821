/** Texts of the area screens (利用可能エリア設定, 禁止エリア設定); labels and messages come from the contract. */
export const areaTexts = {
  /** Page titles of `/car/car_warning_area` and `/car/car_forbidden_area`. */
  titles: { available: '利用可能エリア設定', disable: '禁止エリア設定' },
  /** area-editor.tsx */
  editor: {
    judgement: '現在位置の判定:',
    noAreas: 'エリア未設定',
    outsideAvailable: '利用可能エリア外',
    insideAvailable: '利用可能エリア内',
    insideForbidden: '禁止エリア内',
    outsideForbidden: '禁止エリア外',
    noPosition: '位置情報なし',
    judgedBySaved: '保存済みのエリアで判定しています。',
    addAtCenter: '地図の中央にエリアを追加',
    /** The n-th area (from 1), on the map where it has no name. */
    area: (n: number) => `エリア${n}`,
    howTo:
      'エリアをクリックして選択し、四隅の四角をドラッグすると大きさを、中央の丸をドラッグすると位置を変更できます。',
    count: (kind: string, n: number) => `${kind}（${n}件）`,
    save: '保存する',
    saved: (kind: string) => `${kind}を保存しました。`,
    remove: (n: number) => `エリア${n}を削除`,
    empty: 'エリアは登録されていません。地図の右上の「地図の中央にエリアを追加」から追加してください。',
  },
  /** bulk-template.tsx: the vehicle list's bulk action. */
  bulk: {
    button: 'エリアテンプレートを適用',
    title: '選択した車両にエリアテンプレートを適用',
    label: 'テンプレート',
    help: '選択した車両それぞれの、テンプレートと同じ種類のエリア（利用可能エリアまたは禁止エリア）をテンプレートの内容で置き換えます。',
    none: 'テンプレートがありません',
    done: (n: number, name: string, kind: string) => `${n}台に「${name}」（${kind}）を適用しました`,
  },
  /** template-panel.tsx */
  templates: {
    title: (kind: string) => `${kind}のテンプレート`,
    template: 'テンプレート',
    choose: '選択してください',
    option: (name: string, areas: number, shared: boolean) => `${name}（${areas}件）${shared ? '・本部共有' : ''}`,
    none: 'テンプレートはありません',
    applyTitle: 'テンプレートの適用',
    applyMessage: (name: string, areas: number, kind: string) =>
      `「${name}」のエリア${areas}件で、この車両の${kind}を置き換えます。よろしいですか？`,
    applyConfirm: '適用する',
    applied: (name: string | undefined) => `テンプレート「${name}」を適用しました。`,
    apply: 'この車両に適用',
    deleteTitle: 'テンプレートの削除',
    deleteMessage: (name: string) => `テンプレート「${name}」を削除します。`,
    deleteConfirm: '削除する',
    delete: '削除',
    readOnly: '本部共有（変更不可）',
    saveAs: '現在のエリアをテンプレートとして保存',
    saved: (name: string) => `テンプレート「${name}」を保存しました。`,
    save: '保存',
  },
} as const;
