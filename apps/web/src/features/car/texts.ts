/** Texts of the vehicle screens not given by the contract's carLabels. */
export const carTexts = {
  list: {
    title: '車両一覧',
    contract: '契約状態',
    terminal: '走行・始動・通信・端末',
    noTerminal: '端末未登録',
    lastSeen: '最終受信',
    status: '状態',
    active: '有効',
    deleted: '削除済み',
    live: 'ライブ更新中',
    waiting: '接続待ち',
    add: '車両登録',
  },
} as const;
