import { z } from 'zod';
import { timestamp } from './wire.js';
import { OkResponse } from './auth.js';
import { defineCall } from './call.js';
import { reservedCommandTypes, type ReservedCommandType } from './enums.js';
import { idField } from './fields.js';
import { intCode } from './master-fields.js';
import { validationMessages as m } from './messages.js';
import { parseDateBound } from './telemetry.js';
import { CommandLink } from './terminal-identity.js';

/**
 * Engine start control (docs/product.md §4, §7 car_*reserve*; docs/engine-control.md):
 * reserved commands per terminal and slot (cmd_idx), their lifecycle
 * 1 execWait → 2 resultWait → 3 resultEnd, and reservation requests that a
 * scheduler turns into commands at a given time. Times are ISO 8601 in UTC.
 */

/** One slot per command type: a terminal holds at most one active command per slot. */
export const commandSlots: Record<ReservedCommandType, number> = {
  set_engine_boot_permission: 0,
  req_client_update: 1,
  req_car_setting_update: 2,
};
export const ENGINE_CMD_IDX = commandSlots.set_engine_boot_permission;
export const cmdIdxOf = (type: ReservedCommandType): number => commandSlots[type];
export const commandTypeOfIdx = (idx: number): ReservedCommandType | undefined => reservedCommandTypes[idx];

/** A command not fetched by then is never delivered (expired). */
export const COMMAND_EXPIRY_DEFAULT_MINUTES = 24 * 60;
export const COMMAND_EXPIRY_MAX_MINUTES = 7 * 24 * 60;
/** How far ahead a reservation request may be scheduled. */
export const REQUEST_HORIZON_DAYS = 90;
export const COMMAND_HISTORY_DEFAULT = 50;
export const COMMAND_HISTORY_MAX = 200;
/** Finished requests get_reserve_requests returns beside the pending ones. */
export const RECENT_REQUESTS = 50;
/** Pending reservation requests one vehicle may hold. */
export const REQUEST_PENDING_MAX = 100;
/** Upper bound of a command's cmd_info once serialised. */
export const MAX_CMD_INFO_BYTES = 4096;

export const engineMessages = {
  fetchFailed: 'エンジン始動制御の情報を取得できませんでした。管理者に問い合わせてください。',
  reserveFailed: 'エンジン始動制御の予約に失敗しました。管理者に問い合わせてください。',
  deleteFailed: 'コマンドの削除に失敗しました。管理者に問い合わせてください。',
  requestFailed: 'エンジン始動制御の予約リクエストに失敗しました。管理者に問い合わせてください。',
  requestDeleteFailed: '予約リクエストの削除に失敗しました。管理者に問い合わせてください。',
  slotBusy: '実行待ちまたは結果待ちのコマンドがあるため、新しいコマンドを予約できません。',
  noDevice: 'この車両には端末が登録されていないため、コマンドを予約できません。',
  carDeleted: '削除された車両にはコマンドを予約できません。',
  noVehicle: 'この端末は車両に登録されていないため、コマンドを予約できません。',
  /** The terminal's protocol has no command channel (OsmAnd / Traccar Client, docs/device-protocol.md). */
  noCommandChannel: 'このプロトコルの端末にはエンジン制御コマンドを送信できません',
  tooManyPending: `実行予定の予約リクエストは1台につき${REQUEST_PENDING_MAX}件までです。`,
  nothingToDelete: '削除できる予約コマンドがありません。',
  deleteFetched: '端末がコマンドを受信済み（結果待ち）のため削除できません。',
  deleteFinished: 'コマンドは実行完了しているため削除できません。',
  requestNotPending: 'この予約リクエストは実行済み・失敗・取り消し済みのため削除できません。',
  executeAtFormat: '実行日時の形式が不正です（例: 2026/11/23 10:15）',
  executeAtPast: '実行日時は現在より後の日時を指定してください',
  executeAtTooFar: `実行日時は${REQUEST_HORIZON_DAYS}日以内で指定してください`,
  expiresRange: `有効期限は1〜${COMMAND_EXPIRY_MAX_MINUTES}分（7日）の範囲で指定してください`,
  cmdInfoTooLarge: `コマンドの内容が大きすぎます（${MAX_CMD_INFO_BYTES}バイトまで）`,
  /** Why a request could not fire (ReservationRequest.reason). */
  firedSlotBusy: '実行日時に実行待ちまたは結果待ちのコマンドがあったため実行できませんでした',
  firedNoDevice: '実行日時に車両に端末が登録されていなかったため実行できませんでした',
  firedCarDeleted: '実行日時に車両が削除されていたため実行できませんでした',
  /** 403s of the engine calls (docs/product.md §6, docs/engine-control.md). */
  noEngineRight:
    'エンジン制御権限がないため、エンジン始動の許可・禁止はできません。管理者に権限の付与を依頼してください。',
  superAdminOnly: 'ソフトウェア更新・設定更新のコマンドはシステム管理者のみ予約できます。',
  stepUpRequired: 'エンジン始動の禁止には、パスワードの再入力による本人確認が必要です。',
  stepUpFailed: 'パスワードが正しくありません。',
} as const;

/**
 * Why a pending command or request was cancelled by the server (status `cancelled`): its creator no
 * longer holds the right over the vehicle the terminal is on now (docs/engine-control.md).
 */
export const cancelReasons = {
  creatorDeleted: 'アカウントが削除されたため取消',
  noRight: '権限がなくなったため取消',
  carDeleted: '車両が削除されたため取消',
  terminalMoved: '端末が別の車両に移ったため取消',
  companyChanged: '車両の所属会社が変わったため取消',
} as const;
export type CancelReason = keyof typeof cancelReasons;

/**
 * The text of a stored reason. The database keeps a server cancellation's reason as its code (a key of
 * cancelReasons, written by SQL that has no access to the texts); every other reason (a firing that could not
 * happen, a command held while moving, one cancelled before the codes) is stored as its text and given back
 * as it is.
 */
export function cancelReasonText(stored: string | null): string | null {
  return stored !== null && Object.hasOwn(cancelReasons, stored) ? cancelReasons[stored as CancelReason] : stored;
}

/** How long a step-up (password re-entered) lets the session prohibit engines. */
export const STEP_UP_MINUTES = 5;

// Statuses ------------------------------------------------------------------

/** What became of a command: its state plus how a closed one ended. */
export const commandStatuses = [
  'execWait',
  'resultWait',
  'succeeded',
  'failed',
  'deleted',
  'expired',
  'cancelled',
] as const;
export type CommandStatus = (typeof commandStatuses)[number];
export const commandStatusLabels: Record<CommandStatus, string> = {
  execWait: '実行待ち',
  resultWait: '結果待ち',
  succeeded: '実行完了（成功）',
  failed: '実行完了（失敗）',
  deleted: '削除済み',
  expired: '期限切れ',
  cancelled: '取消（権限なし）',
};

/** Events of a command's timeline (reserved_command_events.event). */
export const commandEventLabels: Record<string, string> = {
  reserved: '予約',
  fetched: '端末が受信',
  succeeded: '実行成功',
  failed: '実行失敗',
  deleted: '削除',
  expired: '期限切れ',
  cancelled: '取消',
  held: '送信保留（走行中）',
};
export const commandEventLabel = (v: string): string => commandEventLabels[v] ?? v;

export const requestStatuses = ['pending', 'fired', 'cancelled', 'failed'] as const;
export type RequestStatus = (typeof requestStatuses)[number];
export const requestStatusLabels: Record<RequestStatus, string> = {
  pending: '実行予定',
  fired: '実行済み',
  cancelled: '取り消し',
  failed: '失敗',
};

// Fields ----------------------------------------------------------------------

const engineCmd = () => intCode(0, 1);
const cmdIdx = () => intCode(0, reservedCommandTypes.length - 1);

const expiresInMinutes = z
  .union([z.number(), z.string().trim().regex(/^\d+$/, engineMessages.expiresRange), z.literal(''), z.null()], {
    error: engineMessages.expiresRange,
  })
  .optional()
  .transform((v) => (v === '' || v === null || v === undefined ? COMMAND_EXPIRY_DEFAULT_MINUTES : Number(v)))
  .pipe(
    z
      .number()
      .int(engineMessages.expiresRange)
      .min(1, engineMessages.expiresRange)
      .max(COMMAND_EXPIRY_MAX_MINUTES, engineMessages.expiresRange),
  );

const boundedObject = z
  .record(z.string(), z.unknown(), { error: m.invalid })
  .refine((o) => JSON.stringify(o).length <= MAX_CMD_INFO_BYTES, engineMessages.cmdInfoTooLarge);

/** cmd_info of each command type, as the terminal receives it. */
export const EngineCmdInfo = z.object({ cmd: engineCmd() });
export const ClientUpdateCmdInfo = z.object({
  /** Target software version; absent: the newest the terminal can get. */
  version: z.string({ error: m.invalid }).trim().max(32, m.tooLong).optional(),
});
export const CarSettingUpdateCmdInfo = z.object({
  /** Settings the terminal applies; absent: fetch them from the server. */
  settings: boundedObject.optional(),
});

// Commands --------------------------------------------------------------------

const time = timestamp();
const nullableTime = time.nullable();

export const CommandEvent = z.object({
  state: z.number().int(),
  event: z.string(),
  account_id: z.string().nullable(),
  account_name: z.string().nullable(),
  at: time,
  /** Why the server cancelled it (event `cancelled`), in Japanese. */
  reason: z.string().nullable(),
});
export type CommandEvent = z.infer<typeof CommandEvent>;

export const ReservedCommand = z.object({
  command_id: z.number().int(),
  car_data_id: z.string(),
  cmd_idx: z.number().int(),
  cmd_type: z.string(),
  cmd_info: z.record(z.string(), z.unknown()),
  /** The last of the reservation states (1-3) the command reached. */
  state: z.number().int(),
  status: z.enum(commandStatuses),
  created_by: z.string().nullable(),
  created_by_name: z.string().nullable(),
  created_at: time,
  expires_at: nullableTime,
  fetched_at: nullableTime,
  result_at: nullableTime,
  /** What the terminal reported (state 3). */
  result: z.object({ success: z.boolean(), detail: z.string() }).nullable(),
  /** The reservation request that fired it, if any. */
  request_id: z.string().nullable(),
  /** When it was deleted, expired or cancelled. */
  closed_at: nullableTime,
  /** Why the server cancelled it (status `cancelled`), in Japanese. */
  cancel_reason: z.string().nullable(),
  /** TCP terminals: the link that first delivered it and the one its answer came on (null: none, or another protocol). */
  sent_link: CommandLink.nullable(),
  answer_link: CommandLink.nullable(),
  /** The answer came on another link than the one it was sent on: the vehicle may never have received it. */
  link_changed: z.boolean(),
  /** Oldest first. */
  events: z.array(CommandEvent),
});
export type ReservedCommand = z.infer<typeof ReservedCommand>;

export const CarDataIdRequest = z.object({ car_data_id: idField() });

/** The slot's command: the active one, else the most recent one (to show how it ended). */
export const CarGetReserveCmdRequest = z.object({ car_data_id: idField(), cmd_idx: cmdIdx().default(ENGINE_CMD_IDX) });
export const CarGetReserveCmdResponse = z.object({
  car_data_id: z.string(),
  cmd_idx: z.number().int(),
  /** 0 wait (nothing active), 1 execWait, 2 resultWait, 3 resultEnd (the last command completed). */
  state: z.number().int(),
  command: ReservedCommand.nullable(),
});
export const carGetReserveCmd = defineCall(
  '/api/car_get_reserve_cmd',
  CarGetReserveCmdRequest,
  CarGetReserveCmdResponse,
);

export const CarEngineStateReserveRequest = z.object({
  car_data_id: idField(),
  cmd_info: z.object({ cmd: engineCmd(), expires_in_minutes: expiresInMinutes }, { error: m.required }),
});
export type CarEngineStateReserveInput = z.input<typeof CarEngineStateReserveRequest>;
export const ReserveCmdResponse = OkResponse.extend({ command: ReservedCommand });
export const carEngineStateReserve = defineCall(
  '/api/car_engine_state_reserve',
  CarEngineStateReserveRequest,
  ReserveCmdResponse,
);

/** Any reserved command type, with its own cmd_info (set_engine_boot_permission too). */
export const CarReserveCmdRequest = z.discriminatedUnion(
  'cmd_type',
  [
    z.object({
      car_data_id: idField(),
      cmd_type: z.literal('set_engine_boot_permission'),
      cmd_info: EngineCmdInfo,
      expires_in_minutes: expiresInMinutes,
    }),
    z.object({
      car_data_id: idField(),
      cmd_type: z.literal('req_client_update'),
      cmd_info: ClientUpdateCmdInfo.default({}),
      expires_in_minutes: expiresInMinutes,
    }),
    z.object({
      car_data_id: idField(),
      cmd_type: z.literal('req_car_setting_update'),
      cmd_info: CarSettingUpdateCmdInfo.default({}),
      expires_in_minutes: expiresInMinutes,
    }),
  ],
  { error: m.invalid },
);
export type CarReserveCmdInput = z.input<typeof CarReserveCmdRequest>;
export const carReserveCmd = defineCall('/api/car_reserve_cmd', CarReserveCmdRequest, ReserveCmdResponse);

/** Deletes the slot's command while it is in execWait; cmd_idx defaults to the engine slot. */
export const CarDeleteReserveEngineCmdRequest = z.object({
  car_data_id: idField(),
  cmd_idx: cmdIdx().default(ENGINE_CMD_IDX),
});
export const carDeleteReserveEngineCmd = defineCall(
  '/api/car_delete_reserve_engine_cmd',
  CarDeleteReserveEngineCmdRequest,
  OkResponse,
);

export const CarGetReserveCmdHistoryRequest = z.object({
  car_data_id: idField(),
  /** Only this slot; absent: every slot. */
  cmd_idx: cmdIdx().optional(),
  limit: z
    .number({ error: m.number })
    .int(m.number)
    .min(1, m.invalid)
    .max(COMMAND_HISTORY_MAX, m.invalid)
    .default(COMMAND_HISTORY_DEFAULT),
});
export const carGetReserveCmdHistory = defineCall(
  '/api/car_get_reserve_cmd_history',
  CarGetReserveCmdHistoryRequest,
  z.object({ list: z.array(ReservedCommand) }),
);

// Reservation requests ------------------------------------------------------

/**
 * execute_at: ISO 8601 with a zone, or 'YYYY/MM/DD HH:mm' (Japan time, docs/product.md §9).
 * Checked against the clock of whoever parses it: in the future, within the horizon.
 */
export const executeAt = (now: () => number = Date.now) =>
  z
    .string({ error: m.required })
    .trim()
    .min(1, m.required)
    .max(40, m.tooLong)
    .transform((v, ctx) => {
      const iso = parseDateBound(v, 'from');
      if (!iso) {
        ctx.addIssue({ code: 'custom', message: engineMessages.executeAtFormat });
        return z.NEVER;
      }
      const t = Date.parse(iso);
      if (t <= now()) ctx.addIssue({ code: 'custom', message: engineMessages.executeAtPast });
      else if (t > now() + REQUEST_HORIZON_DAYS * 86_400_000)
        ctx.addIssue({ code: 'custom', message: engineMessages.executeAtTooFar });
      return iso;
    });

export const ReservationRequestForm = z.object({ car_id: idField(), cmd: engineCmd(), execute_at: executeAt() });
export const CarEngineStateReserveRequestRequest = z.object({ request: ReservationRequestForm });
export type ReservationRequestInput = z.input<typeof ReservationRequestForm>;
export const carEngineStateReserveRequest = defineCall(
  '/api/car_engine_state_reserve_request',
  CarEngineStateReserveRequestRequest,
  OkResponse.extend({ request_id: z.string() }),
);

export const ReservationRequest = z.object({
  request_id: z.string(),
  car_id: z.string(),
  /** 0 permit | 1 prohibit */
  cmd: z.number().int(),
  execute_at: time,
  status: z.enum(requestStatuses),
  /** Why a failed request did not fire. */
  reason: z.string().nullable(),
  command_id: z.number().int().nullable(),
  /** What became of the command it fired. */
  command_status: z.enum(commandStatuses).nullable(),
  created_by: z.string().nullable(),
  created_by_name: z.string().nullable(),
  created_at: time,
  fired_at: nullableTime,
  cancelled_by: z.string().nullable(),
  cancelled_by_name: z.string().nullable(),
  cancelled_at: nullableTime,
});
export type ReservationRequest = z.infer<typeof ReservationRequest>;

export const getReserveRequests = defineCall(
  '/api/get_reserve_requests',
  z.object({ car_id: idField() }),
  z.object({
    /** Soonest first. */
    pending: z.array(ReservationRequest),
    /** The latest RECENT_REQUESTS fired, failed or cancelled ones, newest execute_at first. */
    recent: z.array(ReservationRequest),
  }),
);

export const carDeleteReserveEngineCmdRequest = defineCall(
  '/api/car_delete_reserve_engine_cmd_request',
  z.object({ request_id: idField() }),
  OkResponse,
);
