import { z } from 'zod';
import { timestamp } from './wire.js';
import { defineCall } from './call.js';
import { idField, normalizeDateText } from './fields.js';
import { OkResponse } from './auth.js';
import { validationMessages as m } from './messages.js';

/**
 * The console's view of telemetry (docs/product.md §7 car_get_*_log, car_data_sync)
 * plus our additions: latest state, CSV export and the live push.
 * Times in answers are ISO 8601 in UTC.
 */
export const LOG_LIMIT_DEFAULT = 1000;
export const LOG_LIMIT_MAX = 10_000;
export const GPS_MAX_POINTS_DEFAULT = 5000;
export const GPS_MAX_POINTS_MAX = 20_000;

export const telemetryMessages = {
  dateOrder: '開始日時は終了日時以前で指定してください',
  logFetchFailed: 'ログを取得できませんでした。管理者に問い合わせてください。',
  syncFailed: '過去データの同期に失敗しました。管理者に問い合わせてください。',
  exportFailed: 'CSVの出力に失敗しました。管理者に問い合わせてください。',
  exportBusy: '別のCSV出力を実行中です。完了してから再度お試しください。',
} as const;

const JST = '+09:00';
const DATE = /^(\d{4})[-/](\d{2})[-/](\d{2})$/;
const LOCAL = /^(\d{4})[-/](\d{2})[-/](\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d{1,6})?)?$/;
const ZONED = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/i;

const FIRST_INSTANT = Date.parse('0001-01-01T00:00:00Z');
const LAST_INSTANT = Date.parse('9999-12-31T23:59:59.999Z');

/** Date.parse rolls 2026-02-30 over to March; refuse such days instead. */
const realDay = (iso: string) => {
  const [y, mo, d] = iso.slice(0, 10).split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, mo - 1, d)).getUTCDate() === d;
};

/**
 * One bound of a date filter as an ISO instant, or null when empty.
 * A date alone ('2026-11-23' or '2026/11/23') is a whole day in Japan time; a time
 * without zone ('2026/11/23 10:15', docs/product.md §9) is Japan time, the end bound
 * reaching to the end of that minute or day. Typed forms are read as normalizeDateText reads them
 * (full-width digits, 2026/11/3). Undefined when unreadable.
 */
export function parseDateBound(v: string | null | undefined, side: 'from' | 'to'): string | null | undefined {
  const s = normalizeDateText(v ?? '');
  if (!s) return null;
  let iso: string | undefined;
  let slack = 0;
  let d: RegExpExecArray | null;
  if ((d = DATE.exec(s))) {
    iso = `${d[1]}-${d[2]}-${d[3]}T00:00:00${JST}`;
    slack = 86_400_000 - 1;
  } else if ((d = LOCAL.exec(s))) {
    iso = `${d[1]}-${d[2]}-${d[3]}T${d[4]}:${d[5]}:${d[6] ?? '00'}${d[7] ?? ''}${JST}`;
    slack = d[6] === undefined ? 59_999 : 0;
  } else if (ZONED.test(s)) iso = s;
  const t = iso && realDay(iso) ? Date.parse(iso) : NaN;
  // Outside years 1-9999 (UTC) PostgreSQL cannot read the bound: unreadable, not a server error.
  if (Number.isNaN(t) || t < FIRST_INSTANT || t > LAST_INSTANT) return undefined;
  return new Date(side === 'to' ? t + slack : t).toISOString();
}

const boundInput = z.string({ error: m.invalid }).max(40, m.tooLong).nullish();

/** from/to of docs/product.md §5: both empty means everything, otherwise both are needed. */
export const dateRange = {
  from: boundInput,
  to: boundInput,
};
type RangeInput = { from?: string | null | undefined; to?: string | null | undefined };

/** Checks and resolves a range in place; use as superRefine + transform of a request. */
export function checkDateRange(value: RangeInput, ctx: z.RefinementCtx) {
  const from = parseDateBound(value.from, 'from');
  const to = parseDateBound(value.to, 'to');
  if (from === undefined) ctx.addIssue({ code: 'custom', message: m.invalid, path: ['from'] });
  if (to === undefined) ctx.addIssue({ code: 'custom', message: m.invalid, path: ['to'] });
  if (from === undefined || to === undefined) return;
  if ((from === null) !== (to === null)) {
    ctx.addIssue({ code: 'custom', message: m.dateRange, path: [from === null ? 'from' : 'to'] });
  } else if (from !== null && to !== null && from > to) {
    ctx.addIssue({ code: 'custom', message: telemetryMessages.dateOrder, path: ['from'] });
  }
}
export const resolveDateRange = <T extends RangeInput>(v: T) => ({
  ...v,
  from: parseDateBound(v.from, 'from') ?? null,
  to: parseDateBound(v.to, 'to') ?? null,
});

const emptyToUndefined = (v: unknown) => (v === '' || v === null ? undefined : v);
const limitField = z.preprocess(
  emptyToUndefined,
  z.coerce
    .number({ error: m.number })
    .int(m.number)
    .min(1, m.invalid)
    .max(LOG_LIMIT_MAX, m.invalid)
    .default(LOG_LIMIT_DEFAULT),
);
const beforeIdField = z.preprocess(
  emptyToUndefined,
  z.coerce.number({ error: m.number }).int(m.number).positive(m.invalid).optional(),
);

/**
 * An instant with its zone (as answers give them), as ISO 8601 UTC; undefined when empty. Strictly
 * inside the years PostgreSQL reads (1-9999): a cursor's lookup looks a millisecond either side.
 */
const instantField = z.preprocess(
  emptyToUndefined,
  z
    .string({ error: m.invalid })
    .max(40, m.tooLong)
    .refine((s) => {
      const t = Date.parse(s);
      return ZONED.test(s) && realDay(s) && t > FIRST_INSTANT && t < LAST_INSTANT;
    }, m.invalid)
    .transform((s) => new Date(s).toISOString())
    .optional(),
);

/** car_get_*_log: one terminal (car_data_id = IMEI), newest first, paged with before_id (and before_at). */
export const LogRequest = z
  .object({
    car_data_id: idField(),
    ...dateRange,
    limit: limitField,
    /** The id of the last row of the previous page: returns the rows after it (older). */
    before_id: beforeIdField,
    /**
     * That row's recorded_at, as the previous page gave it (next_before_at): the server then looks for
     * the row in that day's partition alone instead of in every day of the log. Only with before_id.
     */
    before_at: instantField,
  })
  .superRefine((v, ctx) => {
    checkDateRange(v, ctx);
    if (v.before_at !== undefined && v.before_id === undefined)
      ctx.addIssue({ code: 'custom', message: m.invalid, path: ['before_at'] });
  })
  .transform(resolveDateRange);
export type LogRequest = z.input<typeof LogRequest>;

const time = timestamp();
const n = z.number().nullable();
const jsonObject = z.record(z.string(), z.unknown());

export const ConnectionLogRow = z.object({ id: z.number(), recorded_at: time, state: z.string() });
export const EngineLogRow = z.object({
  id: z.number(),
  recorded_at: time,
  /** 'on' | 'off' as the terminal reported it, null on a command row */
  running: z.string().nullable(),
  /** 'connected' (permitted) | 'disconnected' (prohibited) */
  engine_line: z.string().nullable(),
  /** 0 permit | 1 prohibit when the row comes from a console command */
  command: n,
  command_id: n,
  account_id: z.string().nullable(),
  account_name: z.string().nullable(),
});
export const ErrorLogRow = z.object({
  id: z.number(),
  recorded_at: time,
  error_type: z.string(),
  status_code: z.number(),
  detail: z.string(),
});
export const BatteryLogRow = z.object({ id: z.number(), recorded_at: time, voltage: n, percentage: n });
export const SensorLogRow = z.object({ id: z.number(), recorded_at: time, vibration: n, readings: jsonObject });
export const Obd2LogRow = z.object({ id: z.number(), recorded_at: time, pids: jsonObject });

const logResponse = <T extends z.ZodType>(row: T) =>
  z.object({
    list: z.array(row),
    /** Pass as before_id for the next (older) page; null when this page is the last. */
    next_before_id: z.number().nullable(),
    /** Pass as before_at with next_before_id: that row's recorded_at; null when this page is the last. */
    next_before_at: time.nullable(),
  });

export const ConnectionLogResponse = logResponse(ConnectionLogRow);
export const EngineLogResponse = logResponse(EngineLogRow);
export const ErrorLogResponse = logResponse(ErrorLogRow);
export const BatteryLogResponse = logResponse(BatteryLogRow);
export const SensorLogResponse = logResponse(SensorLogRow);
export const Obd2LogResponse = logResponse(Obd2LogRow);

export const carGetConnectionLog = defineCall('/api/car_get_connection_log', LogRequest, ConnectionLogResponse);
export const carGetEngineLog = defineCall('/api/car_get_engine_log', LogRequest, EngineLogResponse);
export const carGetErrorLog = defineCall('/api/car_get_error_log', LogRequest, ErrorLogResponse);
export const carGetBatteryLog = defineCall('/api/car_get_battery_log', LogRequest, BatteryLogResponse);
export const carGetSensorLog = defineCall('/api/car_get_sensor_log', LogRequest, SensorLogResponse);
export const carGetObd2Log = defineCall('/api/car_get_obd2_log', LogRequest, Obd2LogResponse);

/** car_get_gps_log: oldest first (a route), simplified to max_points keeping the route's shape. */
export const GpsLogRequest = z
  .object({
    car_data_id: idField(),
    ...dateRange,
    max_points: z.preprocess(
      emptyToUndefined,
      z.coerce
        .number({ error: m.number })
        .int(m.number)
        .min(2, m.invalid)
        .max(GPS_MAX_POINTS_MAX, m.invalid)
        .default(GPS_MAX_POINTS_DEFAULT),
    ),
  })
  .superRefine(checkDateRange)
  .transform(resolveDateRange);
export type GpsLogRequest = z.input<typeof GpsLogRequest>;

export const GpsPoint = z.object({
  recorded_at: time,
  lat: z.number(),
  lng: z.number(),
  speed: n,
  heading: n,
  /** The point's address where one is known already (docs/geocoding.md): the route never waits for lookups. */
  address: z.string().nullable().optional(),
});
export type GpsPoint = z.infer<typeof GpsPoint>;
export const GpsLogResponse = z.object({
  list: z.array(GpsPoint),
  /** Points stored in the range before simplification. */
  total: z.number().int(),
  simplified: z.boolean(),
});
export const carGetGpsLog = defineCall('/api/car_get_gps_log', GpsLogRequest, GpsLogResponse);

/** device_latest_state: what the vehicle list, detail and live map show. */
export const TelemetryState = z.object({
  car_data_id: z.string(),
  /** Time of the newest record of any kind */
  recorded_at: time.nullable(),
  lat: n,
  lng: n,
  speed: n,
  heading: n,
  engine_running: z.string().nullable(),
  engine_line: z.string().nullable(),
  connection: z.string().nullable(),
  /** Status code of the newest error record; 0 (normal) for a terminal that reported without one; null when it never reported */
  device_state: n,
  battery_voltage: n,
  battery_percentage: n,
  /** When the server last heard from the terminal */
  last_seen_at: time,
});
export type TelemetryState = z.infer<typeof TelemetryState>;

export const carGetLatestState = defineCall(
  '/api/car_get_latest_state',
  z.object({ car_data_id: idField() }),
  /** address: of the state's position (docs/geocoding.md); null until looked up. */
  z.object({ state: TelemetryState.nullable(), address: z.string().nullable().optional() }),
);

/**
 * car_data_sync (past data sync): rebuilds the terminal's latest state from
 * its stored logs, e.g. after late batches or a data import.
 */
export const carDataSync = defineCall(
  '/api/car_data_sync',
  z.object({ car_id: idField(), car_data_id: idField() }),
  OkResponse.extend({ state: TelemetryState.nullable() }),
);

// CSV export --------------------------------------------------------------

export const LOG_EXPORT_PATH = '/api/car_log_export';
export const logKinds = ['gps', 'engine', 'connection', 'battery', 'sensor', 'obd2', 'error'] as const;
export type LogKind = (typeof logKinds)[number];

/** The stored columns of each export, in order; the header row and the values' wording are logExportSpec's. */
export const logExportColumns = {
  gps: ['recorded_at', 'lat', 'lng', 'speed', 'heading', 'satellites', 'accuracy', 'address'],
  engine: ['recorded_at', 'running', 'engine_line', 'command', 'command_id', 'account_id'],
  connection: ['recorded_at', 'state'],
  battery: ['recorded_at', 'voltage', 'percentage'],
  sensor: ['recorded_at', 'vibration', 'readings'],
  obd2: ['recorded_at', 'pids'],
  error: ['recorded_at', 'error_type', 'status_code', 'detail'],
} as const satisfies Record<LogKind, readonly string[]>;

/** GET query (or POST body) of the export; the token goes in the Authorization header. */
export const LogExportQuery = z
  .object({
    kind: z.enum(logKinds, { error: m.invalid }),
    car_data_id: idField(),
    ...dateRange,
  })
  .superRefine(checkDateRange)
  .transform(resolveDateRange);
export type LogExportQuery = z.input<typeof LogExportQuery>;

// Live push ---------------------------------------------------------------

/**
 * Server-sent events at GET LIVE_PATH. Authenticate with the Authorization
 * header (fetch-based readers) or `?ticket=` from live_ticket (EventSource,
 * which cannot send headers). Events: `snapshot` {states}, `state` LiveState,
 * `expired` {message} (then the stream ends). A changed role, company or engine
 * right ends the stream without an event: a new one is scoped anew.
 */
export const LIVE_PATH = '/api/live';
export const LiveState = TelemetryState.extend({ car_id: z.string().nullable() });
export type LiveState = z.infer<typeof LiveState>;
export const LiveSnapshot = z.object({ states: z.array(LiveState) });
export type LiveSnapshot = z.infer<typeof LiveSnapshot>;
export const liveEvents = { snapshot: 'snapshot', state: 'state', expired: 'expired' } as const;

/** A single-use ticket valid for LIVE_TICKET_SECONDS, for `GET /api/live?ticket=`. */
export const LIVE_TICKET_SECONDS = 60;
export const liveTicket = defineCall(
  '/api/live_ticket',
  z.object({}).optional(),
  z.object({ ticket: z.string(), expires_in: z.number().int() }),
);

// The meaning of the sensor and OBD2 keys, shared by the console and the CSV export.
export * from './log-readings.js';
export * from './log-export.js';
