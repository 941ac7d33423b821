/** Texts of the console shell (menu, header, footer). Screen texts live with their feature. */
export const shellTexts = {
  productName: 'フリートコンソール',
  productSub: 'GPS車両管理',
  copyrightHolder: 'Fleet Console Co., Ltd.',
  menu: {
    cars: '車両管理',
    carList: '車両一覧',
    carAdd: '車両登録',
    wizard: '一括登録',
    customers: '顧客管理',
    customerList: '顧客一覧',
    customerAdd: '顧客登録',
    devices: 'GPS端末管理',
    deviceList: 'GPS端末一覧',
    deviceAdd: 'GPS端末登録',
    companies: '加盟店管理',
    companyList: '加盟店一覧',
    companyAdd: '加盟店登録',
    settings: '設定',
    accountList: '管理アカウント一覧',
    accountAdd: '管理アカウント登録',
    notify: '通知設定',
    logout: 'ログアウト',
  },
  header: {
    toggleMenu: 'メニューの表示切替',
    changePassword: 'パスワード変更',
    ownAccount: 'アカウント情報',
  },
  error: {
    backToTop: 'トップへ戻る',
    toLogin: 'ログイン画面へ',
  },
  warning: {
    title: 'セッションが無効です',
  },
  loading: '読み込み中…',
} as const;

/** "2020-<this year>" (SPEC.md §9). */
export const copyrightLine = (now = new Date()) =>
  `© 2020-${now.getFullYear()} ${shellTexts.copyrightHolder}`;
