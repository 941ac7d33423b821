import { engineCommands, errorTypeLabels } from './enums.js';
import { otherReadings, readingColumns, readingHeader, readingOf, type ReadingLog } from './log-readings.js';

/**
 * What the CSV export writes, column by column: the Japanese header and how a stored value reads.
 * The server writes it twice (SQL for PostgreSQL's COPY, `logExportRow` for the row path) and a
 * test holds both to the same bytes. `labels` replace stored values (keys as text), `otherwise`
 * replaces any other value that is not empty; without it the value is written as it is.
 */
export interface LogExportColumn {
  /** The stored column (for sensor / OBD2: `readings.<key>`, `pids.<key>` or the rest as JSON). */
  key: string;
  header: string;
  labels?: Readonly<Record<string, string>>;
  otherwise?: string;
}

const at: LogExportColumn = { key: 'recorded_at', header: '日時' };
const readingCols = (log: ReadingLog, field: 'readings' | 'pids'): LogExportColumn[] => [
  ...readingColumns[log].map((k) => ({ key: `${field}.${k}`, header: readingHeader(log, k) })),
  { key: `${field}.*`, header: 'その他の値' },
];

export const logExportSpec = {
  gps: [
    at,
    { key: 'lat', header: '緯度' },
    { key: 'lng', header: '経度' },
    { key: 'speed', header: '速度 (km/h)' },
    { key: 'heading', header: '方位 (°)' },
    { key: 'satellites', header: '衛星数' },
    { key: 'accuracy', header: '精度 (m)' },
    { key: 'address', header: '住所' },
  ],
  engine: [
    at,
    { key: 'running', header: '走行状態', labels: { on: 'ON', off: 'OFF' } },
    { key: 'engine_line', header: 'エンジン始動', labels: { connected: '許可中' }, otherwise: '禁止中' },
    {
      key: 'command',
      header: '指示',
      labels: {
        [engineCommands.on.value]: engineCommands.on.label,
        [engineCommands.off.value]: engineCommands.off.label,
      },
    },
    { key: 'command_id', header: '指示番号' },
    { key: 'account_id', header: '指示者' },
  ],
  connection: [at, { key: 'state', header: '接続状態', labels: { connected: '接続' }, otherwise: '切断' }],
  battery: [at, { key: 'voltage', header: '電圧 (V)' }, { key: 'percentage', header: '残量 (%)' }],
  sensor: [at, { key: 'vibration', header: '振動' }, ...readingCols('sensor', 'readings')],
  obd2: [at, ...readingCols('obd2', 'pids')],
  error: [
    at,
    { key: 'error_type', header: '種別', labels: errorTypeLabels },
    { key: 'status_code', header: 'ステータスコード' },
    { key: 'detail', header: '詳細' },
  ],
} as const satisfies Record<string, readonly LogExportColumn[]>;

export const logExportHeader = (kind: keyof typeof logExportSpec): string[] => logExportSpec[kind].map((c) => c.header);

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/** YYYY/MM/DD HH:mm:ss in Japan time: the console's format with seconds. */
export function exportTime(d: Date | string): string {
  const j = new Date(new Date(d).getTime() + 9 * 3600_000);
  return `${pad(j.getUTCFullYear(), 4)}/${pad(j.getUTCMonth() + 1)}/${pad(j.getUTCDate())} ${pad(j.getUTCHours())}:${pad(j.getUTCMinutes())}:${pad(j.getUTCSeconds())}`;
}

/** YYYYMMDDHHmm in Japan time, for the file name. */
export const exportFileStamp = (d: Date) => exportTime(d).replace(/\D/g, '').slice(0, 12);

/** One value as the column writes it (before csvField). */
export function exportCell(col: LogExportColumn, value: unknown): unknown {
  if (value === null || value === undefined || value === '') return value;
  if (value instanceof Date) return exportTime(value);
  const label = col.labels?.[String(value)];
  return label ?? col.otherwise ?? value;
}

/** A stored row as the export's values, in the spec's order. */
export function logExportRow(kind: keyof typeof logExportSpec, row: Record<string, unknown>): unknown[] {
  return logExportSpec[kind].map((col: LogExportColumn) => {
    const [field, key] = col.key.split('.');
    if (field === 'recorded_at') return exportTime(row.recorded_at as Date | string);
    if (key === undefined) return exportCell(col, row[col.key]);
    if (key === '*') {
      const rest = otherReadings(field === 'pids' ? 'obd2' : 'sensor', row[field!]);
      return Object.keys(rest).length ? rest : null;
    }
    return exportCell(col, readingOf(row[field!], key));
  });
}
