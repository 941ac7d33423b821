/**
 * Texts of the data log screen; enum wording (接続中, 許可中, 始動/停止 …) comes from the contract.
 * The CSV download's headers are the contract's logExportSpec, not these.
 */
export const carLogTexts = {
  /** `/car/car_loges`: the page and its date filter. */
  screen: {
    title: 'データログ',
    heading: (imei: string, car?: { car_number: string; car_id: string; user_name?: string | null } | null) =>
      car
        ? `${car.car_number}（${car.car_id}）${car.user_name ? ` ・ ${car.user_name}` : ''} ・ IMEI ${imei}`
        : `IMEI ${imei}`,
    from: '開始日時',
    to: '終了日時',
    filter: '絞り込む',
    clear: '条件をクリア',
  },
  /** The tab of each log kind. */
  kinds: {
    connection: '接続',
    engine: 'エンジン',
    gps: 'GPS',
    battery: 'バッテリー',
    sensor: 'センサー',
    obd2: 'OBD2',
    error: 'エラー',
  },
  /** Table column headers (also the text download's header line). */
  columns: {
    at: '日時',
    otherReadings: 'その他の値',
    connection: '接続状態',
    startStop: '始動/停止',
    content: '内容',
    engineLine: 'エンジン始動',
    orderedBy: '指示者',
    lat: '緯度',
    lng: '経度',
    speed: '速度 (km/h)',
    heading: '方位 (°)',
    voltage: '電圧 (V)',
    percentage: '残量 (%)',
    vibration: '振動',
    errorType: '種別',
    status: 'ステータス',
    detail: '詳細',
  },
  /** A console command in the engine log's 内容 column. */
  ordered: (command: string) => `${command}（指示）`,
  charts: {
    battery: 'バッテリー電圧・残量',
    voltage: '電圧',
    percentage: '残量',
    sensor: '振動・センサー値',
    vibration: '振動',
    obd2: 'OBD2 取得値',
  },
  /** log-panel.tsx */
  panel: {
    noData: '出力するデータがありません。',
    shown: (n: number) => `${n.toLocaleString('ja-JP')}件を表示（新しい順）`,
    text: 'テキスト',
    csv: 'CSVダウンロード',
    exporting: 'CSV出力中',
    received: (lines: number) => `${lines.toLocaleString('ja-JP')}行 受信`,
    tableLabel: (kind: string) => `${kind}ログ`,
    empty: 'この期間のログはありません。',
    more: 'さらに古いログを読み込む',
  },
} as const;
