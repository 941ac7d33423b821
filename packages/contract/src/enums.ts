/**
 * Codes of docs/product.md §4 and §6 with their Japanese labels. Label functions take
 * `unknown` because they render whatever a terminal or an old record holds.
 */
export const roles = { admin: 0, manager: 1, common: 2 } as const;
export type Role = (typeof roles)[keyof typeof roles];
export const roleLabels: Record<Role, string> = { 0: '管理者', 1: 'マネージャー', 2: '一般' };
export const roleLabel = (role: unknown, companyId?: string | null): string => {
  if (role === 0 && !companyId) return 'スーパー管理者';
  return roleLabels[role as Role] ?? '不明';
};

/** Super admin: role 0 with no company (docs/product.md §6). */
export const isSuperAdmin = (a: { role: number; company_id: string | null }) => a.role === roles.admin && !a.company_id;
/** Managers are roles 0 and 1 (docs/product.md §6). */
export const isManager = (a: { role: number }) => a.role === roles.admin || a.role === roles.manager;

export type BadgeColor = 'blue' | 'white' | 'yellow' | 'red' | 'black' | 'transparent';
export interface Labelled {
  label: string;
  color: BadgeColor;
}

export const customerStates: Record<number, Labelled> = {
  0: { label: '契約中', color: 'blue' },
  1: { label: 'アカウント停止', color: 'yellow' },
  2: { label: '契約停止', color: 'red' },
  3: { label: '契約解除', color: 'black' },
};
export const customerStateLabel = (v: unknown): string => customerStates[v as number]?.label ?? '不明';

export const paymentDelays: Record<number, Labelled> = {
  0: { label: '遅延なし', color: 'transparent' },
  1: { label: '1ヶ月以上', color: 'yellow' },
  2: { label: '2ヶ月以上', color: 'red' },
  3: { label: '3ヶ月以上', color: 'black' },
};
export const paymentDelayLabel = (v: unknown): string => paymentDelays[v as number]?.label ?? '不明';

export const genderLabel = (v: unknown): string =>
  v === 0 || v === '0' ? '男性' : v === 1 || v === '1' ? '女性' : 'その他';

export const engineCommands = {
  on: { value: 0, label: 'エンジン始動許可' },
  off: { value: 1, label: 'エンジン始動禁止' },
} as const;
export type EngineCommandValue = 0 | 1;
export const engineCommandLabel = (v: unknown): string =>
  v === 0 || v === 'on' ? engineCommands.on.label : engineCommands.off.label;
/** Start/stop log wording: 始動 for permit, 停止 otherwise (docs/product.md §4). */
export const startStopLabel = (v: unknown): string => (v === 0 || v === 'on' ? '始動' : '停止');

export const engineRunningLabel = (v: unknown): string => (v === 'on' ? '走行中' : v === 'off' ? '停止中' : '状態不明');

export const engineLineLabel = (v: unknown): string =>
  v === undefined || v === null || v === '' || v === 'connected' ? '許可中' : '禁止中';

export const connectionLabel = (v: unknown): string =>
  v === undefined || v === null || v === '' ? '状態不明' : v === 'connected' ? '接続中' : '切断中';

export const deviceStateLabel = (v: unknown): string =>
  v === undefined || v === null || v === '' ? '状態不明' : Number(v) === 0 ? '正常' : 'エラー発生';

export const reservedCommandTypes = [
  'set_engine_boot_permission',
  'req_client_update',
  'req_car_setting_update',
] as const;
export type ReservedCommandType = (typeof reservedCommandTypes)[number];
export const reservedCommandTypeLabels: Record<ReservedCommandType, string> = {
  set_engine_boot_permission: 'エンジン始動許可設定',
  req_client_update: '端末ソフトウェア更新',
  req_car_setting_update: '車両設定更新',
};

export const reservationStates = { wait: 0, execWait: 1, resultWait: 2, resultEnd: 3 } as const;
export type ReservationState = (typeof reservationStates)[keyof typeof reservationStates];
export const reservationStateLabels: Record<ReservationState, string> = {
  0: '指示なし',
  1: '実行待ち',
  2: '結果待ち',
  3: '実行完了',
};

export const errorTypes = ['engine', 'gps', 'obd2', 'sensor'] as const;
export type ErrorType = (typeof errorTypes)[number];
export const errorTypeLabels: Record<ErrorType, string> = {
  engine: 'エンジン',
  gps: 'GPS',
  obd2: 'OBD2',
  sensor: 'センサー',
};

export const errorStatusCodes = {
  ok: 0,
  preparing: 1,
  unknown: 1000,
  boot: 1001,
  dataAcquisitionFailure: 1002,
  engineRemoved: 1100,
} as const;
export const errorStatusLabels: Record<number, string> = {
  0: '正常',
  1: '準備中',
  1000: '不明なエラー',
  1001: '起動エラー',
  1002: 'データ取得失敗',
  1100: 'エンジン取り外し',
};
export const errorStatusLabel = (v: unknown): string => errorStatusLabels[v as number] ?? `不明なコード (${String(v)})`;
