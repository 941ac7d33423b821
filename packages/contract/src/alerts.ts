import { z } from 'zod';
import { defineCall } from './call.js';
import { idField } from './fields.js';
import { notifyItemKeys, notifyItems, type NotifyItemKey } from './notify.js';
import { checkDateRange, dateRange, resolveDateRange } from './telemetry.js';
import { timestamp } from './wire.js';
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

export const ALERT_LIST_MAX = 500;

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
} as const;

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

export const alertList = defineCall(
  '/api/alert_list',
  z
    .object({
      ...dateRange,
      unacknowledged: z.boolean({ error: m.invalid }).optional().default(false),
    })
    .superRefine(checkDateRange)
    .transform(resolveDateRange),
  z.object({ list: z.array(AlertRow), unacknowledged: z.number().int() }),
);
export const alertCount = defineCall('/api/alert_count', z.object({}), z.object({ unacknowledged: z.number().int() }));
export const alertAck = defineCall(
  '/api/alert_ack',
  z.object({ alert_id: z.string({ error: m.required }).regex(/^[1-9][0-9]{0,17}$/, m.invalid) }),
  z.object({ ok: z.boolean(), acked_at: timestamp(), acked_by: z.string() }),
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
