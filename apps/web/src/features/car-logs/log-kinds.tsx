import {
  carGetBatteryLog,
  carGetConnectionLog,
  carGetEngineLog,
  carGetErrorLog,
  carGetGpsLog,
  carGetObd2Log,
  carGetSensorLog,
  connectionLabel,
  engineCommandLabel,
  engineLineLabel,
  engineRunningLabel,
  errorStatusLabel,
  errorTypeLabels,
  otherReadingsText,
  readingColumns,
  readingHeader,
  readingKey,
  readingOf,
  readingCell,
  type ReadingLog,
  startStopLabel,
  type Call,
  type LogKind,
} from '@fleet/contract';
import { Text } from '@mantine/core';
import type { ReactNode } from 'react';
import type { z } from 'zod';
import type { ChartSeries } from '../../components/chart/time-chart';
import { callApi, type Takes } from '../../lib/api-client';
import { formatDateTime } from '../../lib/format';
import { carLogTexts as T } from './texts';

export type Row = Record<string, unknown> & { id?: number; recorded_at: string };

/** What the log panel asks for: the terminal, the period, one page (up to `limit` rows before `before_id`). */
export interface LogPageBody {
  car_data_id: string;
  from: string;
  to: string;
  limit: number;
  before_id?: number;
  /** The before_id row's recorded_at, as the previous page gave it (next_before_at). */
  before_at?: string;
}
/** One answer of a log call: rows, and where the next (older) page starts when there is one. */
export interface LogPage {
  list: Row[];
  next_before_id?: number | null;
  next_before_at?: string | null;
}
/** A log call as the panel calls it; that its request takes the body sent is checked with `Takes`. */
type LogCall = Call<z.ZodType, z.ZodType<LogPage>>;
type Load = (body: LogPageBody, signal: AbortSignal) => Promise<LogPage>;

/** A log read page by page: the call must take a LogPageBody, or this does not compile. */
export const pagedLog =
  <C extends Call & Takes<C, LogPageBody>>(call: C & LogCall): Load =>
  (body, signal) =>
    callApi<LogCall>(call, body, { signal });

/** The GPS route: one answer of at most `max_points` points, oldest first; the call must take that body. */
export const routeLog =
  <C extends Call & Takes<C, Omit<LogPageBody, 'limit' | 'before_id' | 'before_at'> & { max_points: number }>>(
    call: C & LogCall,
    max_points: number,
  ): Load =>
  ({ car_data_id, from, to }, signal) =>
    callApi<LogCall>(call, { car_data_id, from, to, max_points }, { signal });
export interface LogColumn {
  label: string;
  render(row: Row): ReactNode;
  /** Plain text for the text download. */
  text(row: Row): string;
}
export interface LogKindView {
  kind: LogKind;
  label: string;
  /** Reads one page of the log (`pagedLog`, or `routeLog` for the GPS points). */
  load: Load;
  columns: LogColumn[];
  /** The call answers oldest first (the GPS route); the table still lists newest first. */
  oldestFirst?: boolean;
  chart?(rows: Row[]): { title: string; series: ChartSeries[] } | null;
}

const num = (v: unknown, digits = 1) => (typeof v === 'number' ? v.toFixed(digits) : '');
const col = (label: string, text: (r: Row) => string, render?: (r: Row) => ReactNode): LogColumn => ({
  label,
  text,
  render: render ?? text,
});
const time = col(T.columns.at, (r) => formatDateTime(r.recorded_at));
const palette = ['#1c64d9', '#e8590c', '#2f9e44', '#9c36b5', '#c2255c'];

/** A column per catalogued key (label and unit from the contract), then the other keys as 「名前: 値」. */
const readingCols = (log: ReadingLog, field: 'readings' | 'pids'): LogColumn[] => [
  ...readingColumns[log].map((k) => col(readingHeader(log, k), (r) => readingCell(log, k, readingOf(r[field], k)))),
  col(
    T.columns.otherReadings,
    (r) => otherReadingsText(log, r[field]),
    (r) => (
      <Text size="xs" c="dimmed" span>
        {otherReadingsText(log, r[field])}
      </Text>
    ),
  ),
];

/** Chart series of the catalogued keys that hold numbers, labelled as the columns are. */
const readingSeries = (
  log: ReadingLog,
  field: 'readings' | 'pids',
  rows: Row[],
  max: number,
  firstColor = 0,
): ChartSeries[] =>
  readingColumns[log]
    .filter((k) => rows.some((r) => typeof readingOf(r[field], k) === 'number'))
    .slice(0, max)
    .map((k, i) => ({
      ...readingKey(log, k),
      color: palette[(firstColor + i) % palette.length]!,
      values: rows.map((r) => {
        const v = readingOf(r[field], k);
        return typeof v === 'number' ? v : null;
      }),
    }));

/** Start/stop wording of docs/product.md §4: a console command says 始動 for permit, 停止 otherwise; a report by what the engine did. */
const startStop = (r: Row) =>
  r.command !== null && r.command !== undefined
    ? startStopLabel(r.command)
    : r.running === 'on'
      ? startStopLabel('on')
      : r.running === 'off'
        ? startStopLabel('off')
        : '';

export const logKindViews: LogKindView[] = [
  {
    kind: 'connection',
    label: T.kinds.connection,
    load: pagedLog(carGetConnectionLog),
    columns: [time, col(T.columns.connection, (r) => connectionLabel(r.state))],
  },
  {
    kind: 'engine',
    label: T.kinds.engine,
    load: pagedLog(carGetEngineLog),
    columns: [
      time,
      col(T.columns.startStop, startStop, (r) => (
        <Text size="sm" fw={700} c={startStop(r) === startStopLabel('on') ? 'teal.7' : 'red.7'}>
          {startStop(r)}
        </Text>
      )),
      col(T.columns.content, (r) =>
        r.command !== null && r.command !== undefined
          ? T.ordered(engineCommandLabel(r.command))
          : engineRunningLabel(r.running),
      ),
      col(T.columns.engineLine, (r) => (r.engine_line ? engineLineLabel(r.engine_line) : '')),
      col(T.columns.orderedBy, (r) => String(r.account_name ?? r.account_id ?? '')),
    ],
  },
  {
    kind: 'gps',
    label: T.kinds.gps,
    load: routeLog(carGetGpsLog, 20_000),
    oldestFirst: true,
    columns: [
      time,
      col(T.columns.lat, (r) => num(r.lat, 6)),
      col(T.columns.lng, (r) => num(r.lng, 6)),
      col(T.columns.speed, (r) => num(r.speed, 0)),
      col(T.columns.heading, (r) => num(r.heading, 0)),
    ],
  },
  {
    kind: 'battery',
    label: T.kinds.battery,
    load: pagedLog(carGetBatteryLog),
    columns: [
      time,
      col(T.columns.voltage, (r) => num(r.voltage, 2)),
      col(T.columns.percentage, (r) => num(r.percentage, 0)),
    ],
    chart: (rows) => ({
      title: T.charts.battery,
      series: [
        {
          label: T.charts.voltage,
          unit: 'V',
          color: palette[0]!,
          values: rows.map((r) => (r.voltage as number | null) ?? null),
        },
        {
          label: T.charts.percentage,
          unit: '%',
          color: palette[1]!,
          values: rows.map((r) => (r.percentage as number | null) ?? null),
        },
      ],
    }),
  },
  {
    kind: 'sensor',
    label: T.kinds.sensor,
    load: pagedLog(carGetSensorLog),
    columns: [time, col(T.columns.vibration, (r) => num(r.vibration, 2)), ...readingCols('sensor', 'readings')],
    chart: (rows) => ({
      title: T.charts.sensor,
      series: [
        {
          label: T.charts.vibration,
          color: palette[0]!,
          values: rows.map((r) => (r.vibration as number | null) ?? null),
        },
        ...readingSeries('sensor', 'readings', rows, 2, 1),
      ],
    }),
  },
  {
    kind: 'obd2',
    label: T.kinds.obd2,
    load: pagedLog(carGetObd2Log),
    columns: [time, ...readingCols('obd2', 'pids')],
    chart: (rows) => {
      const series = readingSeries('obd2', 'pids', rows, 4);
      return series.length ? { title: T.charts.obd2, series } : null;
    },
  },
  {
    kind: 'error',
    label: T.kinds.error,
    load: pagedLog(carGetErrorLog),
    columns: [
      time,
      col(
        T.columns.errorType,
        (r) => errorTypeLabels[r.error_type as keyof typeof errorTypeLabels] ?? String(r.error_type),
      ),
      col(T.columns.status, (r) => `${errorStatusLabel(r.status_code)} (${String(r.status_code)})`),
      col(T.columns.detail, (r) => String(r.detail ?? '')),
    ],
  },
];
