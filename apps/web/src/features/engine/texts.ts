/** Texts of the engine screen that the contract does not carry (its messages live in engineMessages). */
export const engineTexts = {
  prohibitTitle: 'エンジン始動禁止',
  prohibitLabel: '禁止する',
  prohibitNow: (carNumber: string) =>
    `${carNumber} のエンジン始動を禁止します。車両が走行中でもエンジンは止まりませんが、次回から始動できなくなります。確認のため車両番号を入力してください。`,
  prohibitAt: (carNumber: string, at: string) =>
    `${at} に ${carNumber} のエンジン始動を禁止する予約をします。実行後は次回から始動できなくなります。確認のため車両番号を入力してください。`,
  carNumber: '車両番号',
  password: 'パスワード',
  otp: '確認コード（6桁）',
  recoveryCode: 'リカバリーコード',
  recoveryCodeHint: '二段階認証の設定時に保管したコード（各コード1回のみ）',
  useRecoveryCode: 'リカバリーコードを使う',
  useOtp: '認証アプリの確認コードを使う',
  cancelReason: '取消理由',
  cancelledBy: (name: string) => `取り消し: ${name}`,
  /** `/car/car_engine`; its current-state card takes the vehicle detail's labels (carTexts.detail). */
  screen: {
    title: 'エンジン始動制御',
    noTerminal: 'この車両には端末が登録されていないため、エンジン始動制御は使用できません。',
  },
  /** The engine slot (command-card.tsx); its step labels are the contract's reservationStateLabels. */
  command: {
    title: 'エンジン始動制御',
    expiry: '有効期限',
    expiryOptions: { hour1: '1時間', hours6: '6時間', hours24: '24時間', days3: '3日', days7: '7日' },
    /** After an event's time in the timeline: who did it. */
    eventBy: (who: string) => `・${who}`,
    permitTitle: 'エンジン始動許可',
    permitMessage: (carNumber: string) => `${carNumber} のエンジン始動を許可します。よろしいですか？`,
    permitConfirm: '許可する',
    permit: 'エンジン始動を許可',
    prohibit: 'エンジン始動を禁止',
    execWaitHint: '端末の受信待ち',
    resultWaitHint: '端末が受信',
    resultEndHint: '結果を受信',
    /** After the command's label: who ordered it and when. */
    orderedBy: (who: string, at: string) => `（指示: ${who}・${at}）`,
    expiresAt: (at: string) => `有効期限: ${at}`,
    expiresNote: '（期限までに端末が受信しない場合は実行されません）',
    result: (success: boolean) => `端末の結果: ${success ? '成功' : '失敗'}`,
    none: '実行待ちのコマンドはありません。',
    deleteTitle: '実行待ちコマンドの削除',
    deleteMessage: '実行待ちのコマンドを削除します。よろしいですか？',
    deleteConfirm: '削除する',
    delete: 'コマンドを削除',
    execWaitNote: '端末が次に通信したときにコマンドを受信します。',
    resultWaitNote: '端末がコマンドを受信しました。結果を待っています。',
  },
  /** The other reserved command types (other-commands-card.tsx). */
  otherCommands: {
    title: 'その他の端末コマンド',
    deleteTitle: '実行待ちコマンドの削除',
    deleteMessage: (type: string) => `実行待ちの${type}を削除します。`,
    deleteConfirm: '削除する',
    delete: 'コマンドを削除',
    orderMessage: (type: string) => `${type}を端末に指示します。よろしいですか？`,
    order: '指示する',
  },
  /** Reservation requests (requests-card.tsx); the command labels are the contract's engineCommands. */
  requests: {
    title: '予約リクエスト（日時指定）',
    command: 'コマンド',
    executeAt: '実行日時',
    reserve: '予約する',
    deleteTitle: '予約リクエストの削除',
    deleteMessage: (at: string, command: string) => `${at} の「${command}」を取り消します。よろしいですか？`,
    deleteConfirm: '取り消す',
    delete: '取り消し',
    columns: { executeAt: '実行日時', command: 'コマンド', status: '状態', createdBy: '登録者' },
    empty: '予約リクエストはありません。',
  },
  /** Every command of the terminal (history-card.tsx). */
  history: {
    title: 'コマンド履歴',
    columns: { createdAt: '指示日時', content: '内容', result: '結果', orderedBy: '指示者' },
    /** Who ordered a command the scheduler fired. */
    byRequest: '予約リクエスト',
    empty: 'コマンドの履歴はありません。',
  },
} as const;
