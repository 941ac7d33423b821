import { z } from 'zod';
import { defineCall } from './call.js';
import { idField } from './fields.js';
import { CountResponse, listFilter, paging } from './list.js';
import { notifyItemKeys, notifyItems, type NotifyItemKey } from './notify.js';
import { checkDateRange, dateRange, resolveDateRange } from './telemetry.js';
import { timestamp } from './wire.js';
import { OkResponse } from './auth.js';
import { validationMessages as m } from './messages.js';

/**
 * The alert inbox and a vehicle's event timeline (docs/zones.md). Every alert is one row with its
 * vehicle and time, acknowledged once by someone; the timeline puts a terminal's zone crossings, trips,
 * alerts and engine command results in one list.
 */
export const alertKinds = ['zone_enter', 'zone_exit', ...notifyItemKeys, 'command_failed'] as const;
export type AlertKind = (typeof alertKinds)[number];
export const alertKindLabels: Record<AlertKind, string> = {
  zone_enter: 'ゾーン進入',
  zone_exit: 'ゾーン退出',
  ...(Object.fromEntries(notifyItemKeys.map((k) => [k, notifyItems[k].label])) as Record<NotifyItemKey, string>),
  command_failed: 'エンジン制御の失敗',
};

/** At most this many alerts are acknowledged by one alert_ack_many. */
export const ALERT_ACK_MAX = 500;

/** The text of a failed command's alert: what it was to do, and the terminal's reason when it gave one. */
export function commandFailedText(cmdType: string, cmd: unknown, detail: string): string {
  const what =
    cmdType === 'set_engine_boot_permission'
      ? String(cmd) === '1'
        ? 'エンジン始動の禁止'
        : 'エンジン始動の許可'
      : cmdType;
  return `${what}に失敗しました${detail !== '' ? `（${detail}）` : ''}`;
}

export const alertMessages = {
  notFound: 'アラートが見つかりません。',
  fetchFailed: 'アラートを取得できませんでした。管理者に問い合わせてください。',
  ackFailed: 'アラートを確認済みにできませんでした。管理者に問い合わせてください。',
  noAlerts: 'アラートを選択してください',
  tooManyAlerts: `一度に確認済みにできるアラートは${ALERT_ACK_MAX}件までです`,
} as const;

const alertIdField = () => z.string({ error: m.required }).regex(/^[1-9][0-9]{0,17}$/, m.invalid);

export const AlertRow = z.object({
  alert_id: z.string(),
  kind: z.enum(alertKinds),
  what: z.string(),
  car_id: z.string(),
  car_number: z.string(),
  car_data_id: z.string().nullable(),
  zone_id: z.string().nullable(),
  zone_name: z.string().nullable(),
  lat: z.number().nullable(),
  lng: z.number().nullable(),
  happened_at: timestamp(),
  acked_at: timestamp().nullable(),
  acked_by: z.string().nullable(),
  acked_by_name: z.string().nullable(),
});
export type AlertRow = z.infer<typeof AlertRow>;

/**
 * The inbox's filters and page, in the paging of the app's other lists (offset and limit, the total as
 * `count`), newest first. `search_text` finds the vehicle as the vehicle list's search does: part of its
 * car number (full-width or half-width, spaces and hyphens aside) or of its car id. A date range takes
 * both ends or none, as every range of the app (docs/product.md §5).
 */
export const AlertListRequest = z
  .object({
    ...dateRange,
    unacknowledged: z.boolean({ error: m.invalid }).optional().default(false),
    kind: z.enum(alertKinds, { error: m.invalid }).optional(),
    search_text: listFilter.search_text,
    offset: paging.offset,
    limit: paging.limit,
  })
  .superRefine(checkDateRange)
  .transform(resolveDateRange);
export type AlertListRequest = z.input<typeof AlertListRequest>;
export const alertList = defineCall(
  '/api/alert_list',
  AlertListRequest,
  CountResponse.extend({ list: z.array(AlertRow), unacknowledged: z.number().int() }),
);
export const alertCount = defineCall('/api/alert_count', z.object({}), z.object({ unacknowledged: z.number().int() }));
export const alertAck = defineCall(
  '/api/alert_ack',
  z.object({ alert_id: alertIdField() }),
  z.object({ ok: z.boolean(), acked_at: timestamp(), acked_by: z.string() }),
);
/**
 * Several alerts acknowledged at once, all or none: one id not in the caller's reach (another company's,
 * another group's, unknown) refuses the call with 404 and nothing changes. Those acknowledged before keep
 * their first acknowledger; `count` is how many this call acknowledged, at `acked_at` by `acked_by`.
 */
export const alertAckMany = defineCall(
  '/api/alert_ack_many',
  z.object({
    alert_ids: z
      .array(alertIdField(), { error: m.invalid })
      .min(1, alertMessages.noAlerts)
      .max(ALERT_ACK_MAX, alertMessages.tooManyAlerts),
  }),
  OkResponse.extend({ count: z.number().int(), acked_at: timestamp(), acked_by: z.string() }),
);

export const carEventTypes = ['zone_enter', 'zone_exit', 'trip_start', 'trip_end', 'alert', 'command'] as const;
export type CarEventType = (typeof carEventTypes)[number];
export const carEventLabels: Record<CarEventType, string> = {
  zone_enter: 'ゾーン進入',
  zone_exit: 'ゾーン退出',
  trip_start: '運行開始',
  trip_end: '運行終了',
  alert: 'アラート',
  command: 'エンジン制御',
};

export const CarEvent = z.object({
  type: z.enum(carEventTypes),
  at: timestamp(),
  lat: z.number().nullable(),
  lng: z.number().nullable(),
  zone_id: z.string().optional(),
  zone_name: z.string().optional(),
  /** For an alert: its kind (a notification item or command_failed). */
  item: z.string().optional(),
  /** One Japanese sentence. */
  what: z.string(),
});
export type CarEvent = z.infer<typeof CarEvent>;

export const CAR_EVENTS_MAX = 2000;

export const carEvents = defineCall(
  '/api/car_events',
  z
    .object({ car_data_id: idField(), ...dateRange })
    .superRefine(checkDateRange)
    .transform(resolveDateRange),
  z.object({ events: z.array(CarEvent), truncated: z.boolean() }),
);

/**
 * The header's count, live: the live stream (LIVE_PATH) opened with `?topics=alerts` sends no positions,
 * only the event `alerts` with the caller's unacknowledged count, at once and whenever it changes (an
 * alert added or acknowledged on any instance). `topics=states,alerts` sends both.
 */
export const liveTopics = ['states', 'alerts'] as const;
export type LiveTopic = (typeof liveTopics)[number];
export const ALERT_LIVE_EVENT = 'alerts';
export const AlertLiveCount = z.object({ unacknowledged: z.number().int() });
export type AlertLiveCount = z.infer<typeof AlertLiveCount>;
