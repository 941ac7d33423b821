import type { LogKind } from '@fleet/contract';
import { sql, type RawBuilder, type Selectable } from 'kysely';
import type { Db } from '../db/database.js';
import type { DB } from '../db/schema.js';
import { withinWindows, type TimeWindow } from '../access/terminal-time.js';
import { GPS_ORDER, beyondRow, inRange, logOrder, pageWindow, type RowCursor } from './log-order.js';

/**
 * Reads of the append-only telemetry logs: one terminal, a time range,
 * newest first, keyset-paged on (recorded_at, id) so a page never repeats or
 * skips rows when terminals deliver late; through each log's per-terminal
 * index as log-order.ts says (by the minute on GPS, by the time on the others).
 */
export const logTables = {
  gps: 'gps_logs',
  engine: 'engine_logs',
  connection: 'connection_logs',
  battery: 'battery_logs',
  sensor: 'sensor_logs',
  obd2: 'obd2_logs',
  error: 'error_logs',
} as const satisfies Record<LogKind, keyof DB>;
export type LogTable = (typeof logTables)[LogKind];
export type LogRow<K extends LogKind> = Selectable<DB[(typeof logTables)[K]]>;

/** Each log's own columns, besides id, car_data_id and recorded_at. */
const ownColumns: { [K in LogKind]: readonly Exclude<keyof LogRow<K>, 'id' | 'car_data_id' | 'recorded_at'>[] } = {
  gps: ['lat', 'lng', 'speed', 'heading', 'satellites', 'accuracy'],
  engine: ['running', 'engine_line', 'command', 'command_id', 'account_id'],
  connection: ['state'],
  battery: ['voltage', 'percentage'],
  sensor: ['vibration', 'readings'],
  obd2: ['pids'],
  error: ['error_type', 'status_code', 'detail'],
};

/**
 * A log row's columns in the order a newest-first read selects them: recorded_at and id, the order's keys
 * after the minute, first, and the terminal's text last. A GPS page is sorted within each minute by those keys
 * (log-order.ts), and PostgreSQL finds a sort key in a row directly only while no column of variable width
 * comes before it; after car_data_id it walks the row for every comparison, which made a first page measurably
 * slower (bench/README.md, Measurements behind the code: Logs).
 */
const pageColumns = (kind: LogKind) => ['recorded_at', 'id', ...ownColumns[kind], 'car_data_id'];

export interface LogFilter {
  car_data_id: string;
  /** ISO instants; both null means the whole log (docs/product.md §5). */
  from: string | null;
  to: string | null;
  /** The stretches of time the reader may see (terminalWindows); absent or null: all. */
  windows?: readonly TimeWindow[] | null | undefined;
}
export interface LogPage extends LogFilter {
  limit: number;
  before_id?: number | undefined;
  /** The before_id row's recorded_at as an answer gave it (log-order.ts beyondRow). */
  before_at?: string | undefined;
}

const json = (v: unknown) =>
  typeof v === 'string' ? (JSON.parse(v) as Record<string, unknown>) : (v as Record<string, unknown>);

/** A read of one log with its conditions: the terminal, the range, the reader's windows, beyond a cursor row. */
function logRead(db: Db, kind: LogKind, f: LogFilter, before: RowCursor | null) {
  const table = logTables[kind] as LogTable;
  let q = db
    .selectFrom(table)
    .select(pageColumns(kind) as (keyof LogRow<LogKind>)[])
    .where('car_data_id', '=', f.car_data_id);
  if (f.from !== null && f.to !== null) q = q.where(inRange(logOrder(table), f.from, f.to));
  if (f.windows) q = q.where(withinWindows(f.windows));
  if (before !== null) q = q.where(beyondRow(table, '<', before, f.car_data_id));
  return q;
}

/**
 * How many rows the window held when it last came up short, per log of a terminal, for ten minutes. A terminal
 * that reports a log rarely (a battery reading every 15 minutes: 192 rows in two days) would pay a second
 * statement on every 1,000-row page: a read asking for more rows than its window held last time goes in one
 * statement, as before the window (a second statement made such a page clearly slower: bench/README.md, Measurements behind the code: Logs).
 * A hint chooses the statements, never the rows. Its owner decides how long it lives: the log calls keep one for
 * the server, an export one for its batches; the oldest is dropped first.
 */
export class ShortWindows {
  private readonly hints = new Map<string, { rows: number; until: number }>();
  constructor(
    private readonly ttlMs = 10 * 60_000,
    private readonly max = 10_000,
  ) {}

  /** Whether a read of `n` rows of this log should skip the window. */
  expect(key: string, n: number, now: number): boolean {
    const hint = this.hints.get(key);
    if (!hint) return false;
    if (hint.until <= now) {
      this.hints.delete(key);
      return false;
    }
    return n > hint.rows;
  }

  remember(key: string, rows: number, now: number) {
    this.hints.delete(key);
    this.hints.set(key, { rows, until: now + this.ttlMs });
    if (this.hints.size > this.max) this.hints.delete(this.hints.keys().next().value!);
  }
}

/**
 * The first `n` rows of a log read, newest first, in up to two statements: the rows from the start of
 * pageWindow's days, and only if those were fewer than `n`, the older ones for the rest. An unbounded read of a
 * log partitioned by day merges every day's index scan, each one set up before the first row is out, so a first
 * page grew slower with every day kept (bench/README.md, Measurements behind the code: Logs); a page
 * nearly always lies in its own day and the one before, and PostgreSQL then prunes the other days. The window
 * starts at a minute's start, so every row of the first statement comes before every row of the second in the
 * read's order, and together they are its first `n` rows, whatever the window: it only chooses which days are
 * opened first. With `hints`, a log whose window came up short lately is read in one statement (ShortWindows).
 */
async function newestFirst<K extends LogKind>(
  db: Db,
  kind: K,
  f: LogFilter,
  before: RowCursor | null,
  n: number,
  hints?: ShortWindows,
): Promise<LogRow<K>[]> {
  const q = logRead(db, kind, f, before);
  const order = logOrder(logTables[kind]);
  const take = async (limit: number, bound?: RawBuilder<boolean>) =>
    (await (bound ? q.where(bound) : q).orderBy(order.newestFirst).limit(limit).execute()) as LogRow<K>[];
  const now = Date.now();
  const key = `${kind} ${f.car_data_id}`;
  const start = pageWindow(f, before?.at, new Date(now));
  let rows: LogRow<K>[];
  if (start === null || hints?.expect(key, n, now)) rows = await take(n);
  else {
    const at = sql`${start.toISOString()}::timestamptz`;
    rows = await take(n, order.timeBound('>=', at));
    if (rows.length < n) {
      hints?.remember(key, rows.length, now);
      rows.push(...(await take(n - rows.length, order.timeBound('<', at))));
    }
  }
  if (kind === 'sensor') for (const r of rows as LogRow<'sensor'>[]) r.readings = json(r.readings);
  if (kind === 'obd2') for (const r of rows as LogRow<'obd2'>[]) r.pids = json(r.pids);
  return rows;
}

/** Rows of one log, newest first: up to `limit`, plus whether older ones remain. */
export async function findLogPage<K extends LogKind>(
  db: Db,
  kind: K,
  p: LogPage,
  hints?: ShortWindows,
): Promise<{ rows: LogRow<K>[]; more: boolean }> {
  const before = p.before_id === undefined ? null : { id: p.before_id, at: p.before_at };
  const rows = await newestFirst(db, kind, p, before, p.limit + 1, hints);
  const more = rows.length > p.limit;
  if (more) rows.pop();
  return { rows, more };
}

/**
 * One batch of a log, newest first as the console lists it, before the
 * (recorded_at, id) of the last row of the previous batch: what the CSV export
 * streams without ever holding the whole log.
 */
export async function findLogBatch<K extends LogKind>(
  db: Db,
  kind: K,
  f: LogFilter,
  before: RowCursor | null,
  size: number,
  hints?: ShortWindows,
): Promise<LogRow<K>[]> {
  return newestFirst(db, kind, f, before, size, hints);
}

/** Names of the accounts that gave engine commands, for the engine log. */
export async function accountNames(db: Db, ids: readonly string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('accounts')
    .select(['account_id', 'name'])
    .where('account_id', 'in', [...new Set(ids)])
    .execute();
  return new Map(rows.map((r) => [r.account_id, r.name]));
}

/** Points in the range, counting no further than `upTo` (a bounded read, to choose how to read the route). */
export async function countGps(db: Db, f: LogFilter, upTo: number): Promise<number> {
  const row = await db
    .selectFrom(
      gpsRange(db, f)
        .select(sql<number>`1`.as('one'))
        .limit(upTo)
        .as('r'),
    )
    .select(sql<number>`count(*)::int`.as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export interface RoutePoint {
  id: number;
  recorded_at: Date;
  lat: number;
  lng: number;
  speed: number | null;
  heading: number | null;
}

const routeColumns = ['id', 'recorded_at', 'lat', 'lng', 'speed', 'heading'] as const;

function gpsRange(db: Db, f: LogFilter) {
  let q = db.selectFrom('gps_logs').where('car_data_id', '=', f.car_data_id);
  if (f.from !== null && f.to !== null) q = q.where(inRange(GPS_ORDER, f.from, f.to));
  if (f.windows) q = q.where(withinWindows(f.windows));
  return q;
}

/** Up to `size` points in time order after the point `afterId` (its own recorded_at: microseconds a Date would lose). */
export async function findRoutePage(
  db: Db,
  f: LogFilter,
  after: RowCursor | null,
  size: number,
): Promise<RoutePoint[]> {
  let q = gpsRange(db, f);
  if (after !== null) q = q.where(beyondRow('gps_logs', '>', after, f.car_data_id));
  return q.select(routeColumns).orderBy(GPS_ORDER.oldestFirst).limit(size).execute() as Promise<RoutePoint[]>;
}

/** The latest point in the range (a thinned route ends where the vehicle last was). */
export async function findLastRoutePoint(db: Db, f: LogFilter): Promise<RoutePoint | undefined> {
  return gpsRange(db, f).select(routeColumns).orderBy(GPS_ORDER.newestFirst).limit(1).executeTakeFirst() as Promise<
    RoutePoint | undefined
  >;
}

/**
 * The first point in the range, and the epoch seconds of the first and the last: the first and the last in the
 * index's order (a thinned route starts where the vehicle first was). Undefined for an empty range.
 */
export async function gpsSpan(
  db: Db,
  f: LogFilter,
): Promise<{ first: number; last: number; start: RoutePoint } | undefined> {
  const epoch = sql<number>`extract(epoch from recorded_at)::float8`.as('at');
  const row = await db
    .selectFrom(gpsRange(db, f).select(routeColumns).select(epoch).orderBy(GPS_ORDER.oldestFirst).limit(1).as('a'))
    .selectAll('a')
    .select((eb) =>
      eb
        .selectFrom(gpsRange(db, f).select(epoch).orderBy(GPS_ORDER.newestFirst).limit(1).as('z'))
        .select('z.at')
        .as('last'),
    )
    .executeTakeFirst();
  if (!row) return undefined;
  const { at, last, ...start } = row;
  return { first: Number(at), last: Number(last), start: start as RoutePoint };
}

/**
 * How sharply the route turns at a point, 0-180°: between the way it came (from the previous point) and the
 * way it goes on (to the next). From positions, not the terminals' headings: a heading may be missing, and
 * terminals differ on whether a point's heading is the way in or the way out (a U-turn's tip is the point
 * before the reversed heading on one, the point of it on the other).
 */
const inTimeOrder = sql`OVER (ORDER BY ${GPS_ORDER.oldestFirst})`;
const turnAngle = sql<number>`180 - abs(abs(
    atan2d((lead(lng) ${inTimeOrder} - lng) * cosd(lat), lead(lat) ${inTimeOrder} - lat)
    - atan2d((lng - lag(lng) ${inTimeOrder}) * cosd(lat), lat - lag(lat) ${inTimeOrder})) - 180)`;

/** Points a thinned route keeps of each time slice (findRouteSlices). */
export const TURNS_PER_SLICE = 3;

/**
 * TURNS_PER_SLICE points of each time slice of `slice` seconds counted from `origin` (epoch seconds), for
 * the points in [lo, hi) (epoch seconds; null: unbounded), in time order, and how many points lie there: the
 * slice's sharpest turns (turnAngle), else its first points. A line through each slice's first point cut
 * every corner inside a slice (the simplified line then lay tens of metres from the raw route); the sharpest turn
 * of each still lost a step whose two corners fell in one slice, and two of a slice twice as long lost a third
 * close by; three of a slice three times as long keep the line within the route target (bench/README.md, Measurements behind the code: Logs). The slice number is a column of a subquery, so the ranking names one expression.
 */
export async function findRouteSlices(
  db: Db,
  f: LogFilter,
  t: { origin: number; slice: number; lo: number | null; hi: number | null },
): Promise<{ points: RoutePoint[]; stored: number }> {
  let q = gpsRange(db, f);
  const at = (seconds: number) => sql`to_timestamp(${seconds}::float8)`;
  // A slice either side as well: the turns at the read's first and last points are told by their neighbours.
  if (t.lo !== null) q = q.where(GPS_ORDER.timeBound('>=', at(t.lo - t.slice)));
  if (t.hi !== null) q = q.where(GPS_ORDER.timeBound('<', at(t.hi + t.slice)));
  const sliced = q
    .select(routeColumns)
    .select(
      sql<number>`floor((extract(epoch from recorded_at)::float8 - ${t.origin}::float8) / ${t.slice}::float8)`.as('n'),
    )
    .select(turnAngle.as('turn'))
    .as('s');
  const ranked = db
    .selectFrom(sliced)
    .selectAll('s')
    .select(
      sql<number>`row_number() OVER (PARTITION BY s.n ORDER BY s.turn DESC NULLS LAST, s.recorded_at, s.id)`.as('rank'),
    )
    .select(sql<number>`count(*) OVER ()`.as('stored'))
    .$if(t.lo !== null, (r) => r.where(sql<boolean>`s.recorded_at >= ${at(t.lo!)}`))
    .$if(t.hi !== null, (r) => r.where(sql<boolean>`s.recorded_at < ${at(t.hi!)}`))
    .as('r');
  const rows = await db
    .selectFrom(ranked)
    .select(['r.id', 'r.recorded_at', 'r.lat', 'r.lng', 'r.speed', 'r.heading', 'r.stored'])
    .where('r.rank', '<=', TURNS_PER_SLICE)
    .orderBy('r.recorded_at')
    .orderBy('r.id')
    .execute();
  const stored = rows.length ? Number(rows[0]!.stored) : 0;
  return { points: rows.map(({ stored: _stored, ...p }) => p as RoutePoint), stored };
}
