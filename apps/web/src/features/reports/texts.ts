import { reportLabels, tripLabels } from '@fleet/contract';

/** Texts of the report screens not given by the contract's tripLabels / reportLabels. */
export const reportTexts = {
  daily: {
    title: tripLabels.dailyReport,
    day: tripLabels.date,
    noTerminal: '端末が登録されていないため、運行日報はありません。',
    map: '地図',
    trips: tripLabels.trips,
    stops: tripLabels.stops,
    empty: 'この日の運行・停車はありません。',
    stopLabel: (n: number, from: string, to: string, minutes: number) => `停車${n}：${from}〜${to}（${minutes}分）`,
    stillStopped: tripLabels.stillStopped,
  },
  summary: {
    title: tripLabels.report,
    description: '車両ごとの走行距離・運転時間・運行回数を期間で集計します。',
    from: tripLabels.from,
    to: tripLabels.to,
    empty: '対象の車両がありません。',
    vehicles: (n: number) => `${n.toLocaleString('ja-JP')}台`,
    total: tripLabels.total,
  },
  download: {
    label: reportLabels.download,
    running: 'ファイルを作成しています…',
    received: (kb: number) => `${kb.toLocaleString('ja-JP')} KB 受信`,
  },
  subscription: {
    saved: '定期レポートの設定を保存しました。',
    company: tripLabels.company,
  },
  settings: {
    title: tripLabels.settings,
    description: '停車と運行を判定する条件です。変更は、これから届く位置情報の判定と、再計算される期間に使われます。',
    company: tripLabels.company,
    chooseCompany: '設定する会社を選んでください。',
    saved: '運行判定の設定を保存しました。',
    failed: '運行判定の設定を保存できませんでした。管理者に問い合わせてください。',
  },
} as const;
