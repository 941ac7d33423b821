/**
 * What the keys of the sensor log's `readings` and the OBD2 log's `pids` mean: a Japanese
 * label and a unit. The console's tables and charts and the CSV export both read this one
 * catalogue. Terminals may send any key: one not listed here is shown under its own name.
 */
export interface ReadingKey {
  label: string;
  unit?: string;
}

export const obd2Pids = {
  rpm: { label: 'エンジン回転数', unit: 'rpm' },
  vehicle_speed: { label: '車速', unit: 'km/h' },
  coolant_temp: { label: '冷却水温', unit: '℃' },
  fuel_level: { label: '燃料残量', unit: '%' },
  engine_load: { label: 'エンジン負荷', unit: '%' },
  throttle_pos: { label: 'スロットル開度', unit: '%' },
} as const satisfies Record<string, ReadingKey>;

export const sensorReadings = {
  temperature_c: { label: '温度', unit: '℃' },
  humidity_pct: { label: '湿度', unit: '%' },
  altitude_m: { label: '高度', unit: 'm' },
  charging: { label: '充電' },
  moving: { label: '移動' },
  movement: { label: '移動' },
  armed: { label: '警戒' },
  alarm: { label: '警報' },
  gsm_signal: { label: 'GSM電波' },
  voltage_level: { label: '電圧レベル' },
  internal_battery_v: { label: '内蔵電池電圧', unit: 'V' },
  internal_battery_pct: { label: '内蔵電池残量', unit: '%' },
  odometer_m: { label: '走行距離計', unit: 'm' },
} as const satisfies Record<string, ReadingKey>;

/** The keys that get a column of their own (table and CSV); the rest share one column. */
export const readingColumns = {
  sensor: ['temperature_c', 'humidity_pct'],
  obd2: ['rpm', 'vehicle_speed', 'coolant_temp', 'fuel_level', 'engine_load', 'throttle_pos'],
} as const satisfies { sensor: readonly (keyof typeof sensorReadings)[]; obd2: readonly (keyof typeof obd2Pids)[] };

const catalogues = {
  sensor: sensorReadings as Record<string, ReadingKey>,
  obd2: obd2Pids as Record<string, ReadingKey>,
};
export type ReadingLog = keyof typeof catalogues;

/** The label and unit of a key; an unknown key is labelled with its own name. */
export const readingKey = (log: ReadingLog, key: string): ReadingKey => catalogues[log][key] ?? { label: key };

/** 「エンジン回転数 (rpm)」: a column header or a chart legend. */
export function readingHeader(log: ReadingLog, key: string): string {
  const k = readingKey(log, key);
  return k.unit ? `${k.label} (${k.unit})` : k.label;
}

/** A value as a person reads it: true/false as ON/OFF, objects as JSON. */
export function readingValue(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'boolean') return value ? 'ON' : 'OFF';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** Decimals a unit's numbers are shown with, in tables and charts alike (℃ to a tenth: 23.5℃). */
const unitDecimals: Record<string, number> = { '℃': 1, '%': 0, V: 2, rpm: 0, 'km/h': 0, m: 1 };

/** A reading's number as the console shows it everywhere (table cells, chart legends and axes): its unit's decimals. */
export function readingNumber(n: number, unit?: string): string {
  const decimals = unit === undefined ? undefined : unitDecimals[unit];
  return decimals === undefined ? String(n) : n.toFixed(decimals);
}

/** A number with its unit: 23.5℃ and 45% closed up as Japanese writes them, a space before letters (12.60 V, 40.2 m). */
export function withUnit(n: number, unit?: string): string {
  const v = readingNumber(n, unit);
  if (!unit) return v;
  return unit === '℃' || unit === '%' ? `${v}${unit}` : `${v} ${unit}`;
}

/** A key's value in its own column (the unit is in the header): numbers by withUnit's rule, the rest by readingValue. */
export function readingCell(log: ReadingLog, key: string, value: unknown): string {
  return typeof value === 'number' ? readingNumber(value, readingKey(log, key).unit) : readingValue(value);
}

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/** The keys without a column of their own, in the order they came. */
export function otherReadings(log: ReadingLog, values: unknown): Record<string, unknown> {
  if (!isObject(values)) return {};
  const own = readingColumns[log] as readonly string[];
  return Object.fromEntries(Object.entries(values).filter(([k]) => !own.includes(k)));
}

/** 「高度: 40.2 m、充電: ON、event_io: 3」: the keys without a column, labelled where known. */
export function otherReadingsText(log: ReadingLog, values: unknown): string {
  return Object.entries(otherReadings(log, values))
    .map(([k, v]) => {
      const unit = catalogues[log][k]?.unit;
      return `${catalogues[log][k]?.label ?? k}: ${typeof v === 'number' ? withUnit(v, unit) : readingValue(v)}`;
    })
    .join('、');
}

/** One key's value from a log row's object; undefined when it is missing. */
export const readingOf = (values: unknown, key: string): unknown => (isObject(values) ? values[key] : undefined);
