/** The alert inbox and timeline texts (docs/zones.md). Kind and event labels are the contract's. */
export const alertTexts = {
  title: 'アラート',
  description:
    'ゾーンの出入り、通知項目、エンジン制御の失敗を1件ずつ記録します。対応したものは確認済みにしてください。',
  badge: (n: number) => `未確認のアラート ${n} 件`,
  onlyUnacknowledged: '未確認のみ',
  from: '開始日',
  to: '終了日',
  empty: 'アラートはありません',
  kind: '種類',
  allKinds: 'すべての種類',
  car: '車両',
  carPlaceholder: '車両番号・車両IDの一部',
  ack: '確認済みにする',
  ackSelected: (n: number) => `選択したアラートを確認済みにする（${n}件）`,
  ackedMany: (n: number) => `${n}件のアラートを確認済みにしました`,
  clear: '選択を解除',
  rowLabel: (at: string, car: string, kind: string) => `${at} ${car} ${kind}`,
  acked: (name: string, at: string) => `${name}（${at}）`,
  columns: { at: '日時', car: '車両', kind: '種類', what: '内容', ack: '確認' },
  timeline: {
    title: 'タイムライン',
    day: '日付',
    empty: 'この日の出来事はありません',
    truncated: '件数が多いため、先頭の一部だけを表示しています',
  },
} as const;
