/**
 * A count with ja-JP's digit grouping (1,234). Not toLocaleString: it builds an Intl formatter per call, and
 * the first one loads the locale's data, a visible part of the map's first render (bench/README.md, Measurements behind the code: Console).
 */
const num = (n: number) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');

/** Texts of the fleet map (docs/console.md); state labels come from the contract's fleetStateLabels. */
export const fleetMapTexts = {
  title: '車両マップ',
  description: '閲覧できる全車両の最新位置です。新しい報告はそのまま地図と一覧に反映されます。',
  search: '検索（車両番号・車両ID・顧客名）',
  states: '状態',
  company: '加盟店',
  shown: (n: number, all: number) => `表示 ${num(n)}台 / 全${num(all)}台`,
  noPosition: (n: number) => `位置情報のない車両 ${num(n)}台は地図に表示されません。`,
  phoneView: { label: '表示の切り替え', map: '地図', list: (n: number) => `一覧（${num(n)}台）` },
  unplaced: {
    title: '地図に表示できない車両',
    noTerminal: '端末が登録されていません',
    noReport: '端末からの報告がまだありません',
    noFix: (seen: string) => `報告に位置情報がありません（最終受信 ${seen}）`,
    more: (n: number) => `ほか ${num(n)}台`,
  },
  empty: '条件に一致する車両がありません。',
  detail: '車両詳細を開く',
  listLabel: '車両一覧（地図と同じ車両）',
  pageLabel: '一覧のページ',
  fetchFailed: '車両の位置を取得できませんでした。管理者に問い合わせてください。',
  cluster: (n: number) => `${n}台`,
  speed: (v: number | null) => (v === null ? '速度不明' : `${Math.round(v)} km/h`),
  seen: '最終受信',
  follow: 'この車両を追従',
  unfollow: '追従を解除',
  following: (car: string) => `追従中：${car}（地図を動かすと解除されます。直近1時間の軌跡を表示）`,
} as const;
