/** Texts of the terminal screens not given by the contract's deviceLabels. */
export const deviceTexts = {
  /** Under the protocol select when OsmAnd is chosen (docs/device-protocol.md §10.5). */
  osmandNoCommands: 'OsmAnd（Traccar Client）にはコマンドを送る経路がないため、エンジン制御はできません',
  commandTextHint: '空欄のときは既定のコマンド',
  /** After a protocol's default command text on the detail screen. */
  byDefault: (text: string) => `${text}（既定）`,
  list: { title: 'GPS端末一覧', add: 'GPS端末登録', noCar: '未登録' },
  detail: {
    title: 'GPS端末詳細',
    heading: (id: string, imei: string) => `${id}（IMEI ${imei}）`,
    noun: 'GPS端末',
    subject: (id: string) => `端末 ${id} `,
    noCar: '未登録',
    customer: '顧客',
    connection: '接続状態',
    lastSeen: '最終通信日時',
  },
  addTitle: 'GPS端末登録',
  editTitle: 'GPS端末編集',
  /** The terminal form (device-fields.tsx). */
  fields: {
    terminal: '端末情報',
    network: 'ネットワーク',
    imeiHint: 'IMEI 15桁（H02は10桁も可、JT/T 808は電話番号12桁か20桁）',
    ipExample: '203.0.113.0/24, 198.51.100.7',
    ipHint: '接続を許可する送信元。アドレスかCIDR、複数はカンマ区切り（空欄: 制限なし）',
    macExample: '02:1A:7F:00:00:01',
    generateHint: 'ランダムなパスワードを生成',
    generate: 'パスワードを生成',
    passwordKeep: '変更しない場合は空欄',
    passwordLength: '8〜32文字',
  },
} as const;
