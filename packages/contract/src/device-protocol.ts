import { z } from 'zod';
import { errorStatusCodes, errorTypes } from './enums.js';

/**
 * The terminal protocol of docs/device-protocol.md: what a GPS terminal POSTs
 * to /device/v1/batch and what it gets back. Each record is validated on its
 * own so one bad record never costs the rest of the batch.
 */
export const DEVICE_BATCH_PATH = '/device/v1/batch';
/** Records per batch; a terminal with more splits them over several batches. */
export const MAX_RECORDS_PER_BATCH = 2000;
/** How far ahead of the server's clock a record's time may be before it is refused. */
export const MAX_CLOCK_SKEW_MS = 10 * 60_000;
/** Records older than this (a terminal whose clock was reset) are refused, as are times PostgreSQL cannot store. */
export const EARLIEST_RECORD_TIME = Date.parse('1970-01-01T00:00:00Z');
/** How long the server remembers a batch's (IMEI, seq): a resend within this time is recognised. */
export const BATCH_RECEIPT_DAYS = 7;
/** Upper bound of a JSON object value (sensor readings, OBD2 pids) once serialised. */
export const MAX_OBJECT_BYTES = 4096;

export const deviceProtocolMessages = {
  unauthorized: '端末IDまたはパスワードが正しくありません。',
  deviceDeleted: 'この端末は利用停止されています。',
  badBatch: 'バッチの形式が不正です。',
  tooManyFailures: '認証の失敗が多すぎます。しばらく待ってから再度送信してください。',
  futureTime: '時刻がサーバー時刻より10分以上先です',
  pastTime: '時刻が1970-01-01より前です',
  unstorable: '保存できない値（U+0000、不正なサロゲート、極端に小さい数値）または深すぎる入れ子が含まれています',
  unknownCommand: '指定されたコマンドはこの端末のものではありません',
  commandNotWaiting: 'このコマンドは結果待ちではありません',
  duplicateResult: '同じバッチ内で同じコマンドの結果が重複しています',
} as const;

const num = (label: string, min: number, max: number) =>
  z
    .number({ error: `${label}は数値で指定してください` })
    .min(min, `${label}は${min}以上で指定してください`)
    .max(max, `${label}は${max}以下で指定してください`);
const optionalNum = (label: string, min: number, max: number) => num(label, min, max).nullish();
const jsonObject = (label: string) =>
  z
    .record(z.string(), z.unknown(), { error: `${label}はオブジェクトで指定してください` })
    .refine(
      (o) => JSON.stringify(o).length <= MAX_OBJECT_BYTES,
      `${label}が大きすぎます（${MAX_OBJECT_BYTES}バイトまで）`,
    );

const base = {
  time: z.iso.datetime({ offset: true, error: 'time はタイムゾーン付きのISO 8601形式で指定してください' }),
};

export const GpsRecord = z.object({
  type: z.literal('gps'),
  ...base,
  /** degrees, WGS84 */
  lat: num('緯度', -90, 90),
  lng: num('経度', -180, 180),
  /** km/h */
  speed: optionalNum('速度', 0, 400),
  /** degrees clockwise from north, 0 to 360 */
  heading: optionalNum('方位', 0, 360),
  satellites: z
    .number({ error: '衛星数は整数で指定してください' })
    .int('衛星数は整数で指定してください')
    .min(0)
    .max(128)
    .nullish(),
  /** metres */
  accuracy: optionalNum('精度', 0, 100_000),
});

const runningStates = ['on', 'off'] as const;
const engineLines = ['connected', 'disconnected'] as const;
const connectionStates = ['connected', 'disconnected'] as const;

export const EngineRecord = z
  .object({
    type: z.literal('engine'),
    ...base,
    running: z.enum(runningStates, { error: 'running は on または off で指定してください' }).nullish(),
    engine_line: z
      .enum(engineLines, { error: 'engine_line は connected または disconnected で指定してください' })
      .nullish(),
  })
  .refine((r) => r.running != null || r.engine_line != null, {
    message: 'running または engine_line のどちらかが必要です',
    path: ['running'],
  });

export const ConnectionRecord = z.object({
  type: z.literal('connection'),
  ...base,
  state: z.enum(connectionStates, { error: 'state は connected または disconnected で指定してください' }),
});

export const BatteryRecord = z
  .object({
    type: z.literal('battery'),
    ...base,
    /** volts */
    voltage: optionalNum('電圧', 0, 100),
    /** 0 to 100 */
    percentage: optionalNum('残量', 0, 100),
  })
  .refine((r) => r.voltage != null || r.percentage != null, {
    message: 'voltage または percentage のどちらかが必要です',
    path: ['voltage'],
  });

export const SensorRecord = z.object({
  type: z.literal('sensor'),
  ...base,
  /** peak acceleration in g since the previous sensor record */
  vibration: optionalNum('振動', 0, 1000),
  readings: jsonObject('readings').default({}),
});

export const Obd2Record = z.object({
  type: z.literal('obd2'),
  ...base,
  pids: jsonObject('pids'),
});

const statusCodeValues = Object.values(errorStatusCodes) as number[];
export const ErrorRecord = z.object({
  type: z.literal('error'),
  ...base,
  error_type: z.enum(errorTypes, { error: `error_type は ${errorTypes.join(', ')} のいずれかで指定してください` }),
  status_code: z
    .number({ error: 'status_code は数値で指定してください' })
    .refine(
      (v) => statusCodeValues.includes(v),
      `status_code は ${statusCodeValues.join(', ')} のいずれかで指定してください`,
    ),
  detail: z.string({ error: 'detail は文字列で指定してください' }).max(255, 'detail は255文字までです').default(''),
});

export const CommandResultRecord = z.object({
  type: z.literal('command_result'),
  ...base,
  command_id: z
    .number({ error: 'command_id は整数で指定してください' })
    .int('command_id は整数で指定してください')
    .positive('command_id は正の整数で指定してください'),
  success: z.boolean({ error: 'success は true または false で指定してください' }),
  detail: z.string({ error: 'detail は文字列で指定してください' }).max(255, 'detail は255文字までです').default(''),
});

export const recordTypes = [
  'gps',
  'engine',
  'connection',
  'battery',
  'sensor',
  'obd2',
  'error',
  'command_result',
] as const;
export type RecordType = (typeof recordTypes)[number];

export const DeviceRecord = z.discriminatedUnion(
  'type',
  [
    GpsRecord,
    EngineRecord,
    ConnectionRecord,
    BatteryRecord,
    SensorRecord,
    Obd2Record,
    ErrorRecord,
    CommandResultRecord,
  ],
  { error: `type は ${recordTypes.join(', ')} のいずれかで指定してください` },
);
export type DeviceRecord = z.output<typeof DeviceRecord>;
export type DeviceRecordInput = z.input<typeof DeviceRecord>;
export type RecordOf<T extends RecordType> = Extract<DeviceRecord, { type: T }>;

/** The envelope; records are checked one by one with parseDeviceRecord. */
export const DeviceBatch = z.object({
  /** The terminal's own counter: a new number per new batch, the same number when retrying. */
  seq: z
    .number({ error: 'seq は0以上の整数で指定してください' })
    .int('seq は0以上の整数で指定してください')
    .min(0, 'seq は0以上の整数で指定してください')
    .max(Number.MAX_SAFE_INTEGER),
  records: z
    .array(z.unknown(), { error: 'records は配列で指定してください' })
    .max(MAX_RECORDS_PER_BATCH, `records は${MAX_RECORDS_PER_BATCH}件までです`),
});
export type DeviceBatch = z.infer<typeof DeviceBatch>;

export const RejectedRecord = z.object({ index: z.number().int(), reason: z.string() });
export type RejectedRecord = z.infer<typeof RejectedRecord>;

/** Validates one record; the reason names the field, in Japanese. */
export function parseDeviceRecord(input: unknown): { ok: true; record: DeviceRecord } | { ok: false; reason: string } {
  const parsed = DeviceRecord.safeParse(input);
  if (parsed.success) return { ok: true, record: parsed.data };
  const issue = parsed.error.issues[0]!;
  const field = issue.path.map(String).join('.');
  return { ok: false, reason: field && !issue.message.includes(field) ? `${field}: ${issue.message}` : issue.message };
}

export const DeviceCommand = z.object({
  /** Quote this id in the command_result record. */
  id: z.number().int(),
  cmd_idx: z.number().int(),
  /** one of reservedCommandTypes */
  cmd_type: z.string(),
  /** set_engine_boot_permission: { cmd: 0 permit | 1 prohibit } */
  cmd_info: z.record(z.string(), z.unknown()),
  created_at: z.string(),
});
export type DeviceCommand = z.infer<typeof DeviceCommand>;

export const DeviceBatchResponse = z.object({
  seq: z.number().int(),
  accepted: z.number().int(),
  rejected: z.array(RejectedRecord),
  /** true when this seq had been received before: nothing was stored again. */
  duplicate: z.boolean(),
  /** Commands to execute; a command is repeated until its result is reported. */
  commands: z.array(DeviceCommand),
  server_time: z.string(),
});
export type DeviceBatchResponse = z.infer<typeof DeviceBatchResponse>;
