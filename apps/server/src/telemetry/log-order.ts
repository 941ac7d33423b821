import { sql, type RawBuilder } from 'kysely';

/*
 * How a per-terminal read of a log uses its index. GPS, the fleet's bulk, is indexed by (car_data_id,
 * log_minute(recorded_at)) (migration telemetry_minute_index: a minute's points share one key, which keeps a
 * GPS row with its indexes under 110 bytes): in time order means by the minute first (the index's order; a
 * partitioned log merges its days on it) and then by recorded_at and id within the minute, which PostgreSQL
 * does as an incremental sort of one minute's rows at a time, so a page still stops after its rows; a range
 * and a keyset cursor are given by their minutes as well, which is what the index can find. The other logs,
 * about a tenth of the rows, are indexed by (car_data_id, recorded_at, id) (migration log_page_order_index):
 * in time order is the index's order as it is, and bounds are on the time alone. Every condition here is on
 * the log's own columns, unqualified: the log is the read's only table.
 */

/** A bound on recorded_at: at or after, at or before, strictly before. */
type Bound = '>=' | '<=' | '<';

/** The cursor's instant, a millisecond either side (ISO instants). */
interface Near {
  lo: string;
  hi: string;
}

/** How reads of one log order and bound its rows (logOrder). */
export interface LogOrder {
  /** Newest first: the order of the console's log pages. */
  newestFirst: RawBuilder<unknown>;
  /** newestFirst as text (the CSV export's COPY takes no parameters). */
  newestFirstText: string;
  /** Oldest first: the order of a route. */
  oldestFirst: RawBuilder<unknown>;
  /** The index's own order: for work that only needs the rows in slices, the retention's. */
  indexOrder: RawBuilder<unknown>;
  /** recorded_at `op` `at` (a timestamptz expression), bounding the index's range. */
  timeBound(op: Bound, at: RawBuilder<unknown>): RawBuilder<boolean>;
  /** timeBound as text, `at` already SQL (the one definition of the bound: timeBound is made from it). */
  boundText(op: Bound, at: string): string;
  /** A row's key in the order, and the cursor row's (`c`): a cursor known by its id alone compares them. */
  key: string;
  cursorKey: string;
  /** The rows on the cursor's side of its time (beyondRow): the days they lie in and the index's range. */
  beyondTime(side: '<' | '>', near: Near): RawBuilder<boolean>;
}

/** Where `at` goes in a bound's text while timeBound puts the expression there. */
const AT = '\u0000at\u0000';

/** An order by these keys (columns of the log, or expressions of them). */
function orderBy(keys: readonly string[], index: string, bounds: Pick<LogOrder, 'boundText' | 'beyondTime'>): LogOrder {
  const newestFirstText = keys.map((k) => `${k} DESC`).join(', ');
  return {
    timeBound: (op, at) =>
      sql.join(
        bounds
          .boundText(op, AT)
          .split(AT)
          .map((part) => sql.raw(part)),
        at,
      ),
    newestFirst: sql.raw(newestFirstText),
    newestFirstText,
    oldestFirst: sql.raw(keys.join(', ')),
    indexOrder: sql.raw(index),
    key: keys.join(', '),
    cursorKey: keys.map((k) => k.replace(/\b(recorded_at|id)\b/, 'c.$1')).join(', '),
    ...bounds,
  };
}

/** The bound the minute keeps: a strict bound still takes rows of its own minute. */
const minuteBound = (op: Bound) => (op === '>=' ? '>=' : '<=');

const byMinute: LogOrder = orderBy(['log_minute(recorded_at)', 'recorded_at', 'id'], 'log_minute(recorded_at)', {
  boundText: (op, at) => `recorded_at ${op} ${at} AND log_minute(recorded_at) ${minuteBound(op)} log_minute(${at})`,
  beyondTime: (side, near) => cursorDays(side, near),
});

/** Bounded by the instant itself: one condition, which the planner does not count twice (cursorDays). */
const byTime: LogOrder = orderBy(['recorded_at', 'id'], 'recorded_at', {
  boundText: (op, at) => `recorded_at ${op} ${at}`,
  beyondTime: (side, near) =>
    side === '<'
      ? sql<boolean>`recorded_at <= ${near.hi}::timestamptz`
      : sql<boolean>`recorded_at >= ${near.lo}::timestamptz`,
});

/** The order of a log by its table's name: by the minute for GPS, by the time for the others. */
export const logOrder = (table: string): LogOrder => (table === 'gps_logs' ? byMinute : byTime);
/** GPS's: the route's reads. */
export const GPS_ORDER = byMinute;

/** recorded_at within [from, to] (ISO instants). */
export const inRange = (order: LogOrder, from: string, to: string): RawBuilder<boolean> =>
  sql<boolean>`${order.timeBound('>=', sql`${from}::timestamptz`)} AND ${order.timeBound('<=', sql`${to}::timestamptz`)}`;

/** inRange as text, for values made SQL literals by `literal` (the CSV export's COPY takes no parameters). */
export const rangeText = (order: LogOrder, from: string, to: string, literal: (v: string) => string) =>
  `${order.boundText('>=', `${literal(from)}::timestamptz`)} AND ${order.boundText('<=', `${literal(to)}::timestamptz`)}`;

/** A keyset cursor: a row's id and, when known, its recorded_at (a Date, or an ISO instant an answer gave). */
export interface RowCursor {
  id: number;
  at?: Date | string | undefined;
}

/**
 * Rows before (`<`, newest first) or after (`>`, oldest first) the row `cursor.id` of the same log, in the
 * order above: one subquery reads the cursor row's own times (microseconds a JS Date would round away).
 * `carDataId` narrows the cursor lookup to the terminal's rows (a log page's cursor names its terminal);
 * `cursor.at`, good to the millisecond, to that instant (its minute, on GPS) of the terminal in its day's
 * partition (otherwise the lookup probes every day's partition for the id). A cursor row that is not there,
 * or not at that time, leaves nothing beyond it: an empty page, as an unknown id does.
 */
export function beyondRow(table: string, side: '<' | '>', cursor: RowCursor, carDataId?: string): RawBuilder<boolean> {
  const order = logOrder(table);
  const terminal = carDataId === undefined ? sql`` : sql` AND c.car_data_id = ${carDataId}`;
  const t = cursor.at === undefined ? NaN : new Date(cursor.at).getTime();
  // Only a time a millisecond inside the years PostgreSQL reads (1-9999) narrows the lookup.
  const [lo, hi] = [new Date(t - 1), new Date(t + 1)];
  const near =
    Number.isNaN(t) || lo.getUTCFullYear() < 1 || hi.getUTCFullYear() > 9999
      ? undefined
      : { lo: lo.toISOString(), hi: hi.toISOString() };
  // Unqualified columns in the subquery are the cursor row's (c): inRange bounds them.
  const from = sql`FROM ${sql.table(table)} c WHERE c.id = ${cursor.id}${terminal}`;
  if (!near) return sql<boolean>`(${sql.raw(order.key)}) ${sql.raw(side)} (SELECT ${sql.raw(order.cursorKey)} ${from})`;
  // The rows beyond lie on the cursor's side of its time, which PostgreSQL prunes the days by (the row
  // comparison it cannot) and the index's minutes bound: a page deep in the log merges the days before the
  // cursor's, not all of them. With that bound the comparison leaves the minute out: the minute follows
  // the time, so (minute, time, id) and (time, id) order rows alike, and the minute is not worked out
  // again for every row the page reads, which made a deep page that reads many rows for its own a third slower or more
  // (bench/README.md, Measurements behind the code: Logs).
  const lookup = sql`SELECT c.recorded_at, c.id ${from} AND ${inRange(order, near.lo, near.hi)}`;
  return sql<boolean>`(recorded_at, id) ${sql.raw(side)} (${lookup}) AND ${order.beyondTime(side, near)}`;
}

/** The logs are partitioned by UTC day (partitions.repository.ts). */
export const DAY_MS = 86_400_000;
export const startOfUtcDay = (t: Date) => new Date(Math.floor(t.getTime() / DAY_MS) * DAY_MS);

/**
 * The partitions a page of GPS beyond a cursor may read: up to the end of the cursor's UTC day (newest first) or
 * from its start (oldest first), and the index's minutes up to (from) the cursor's. The time bound is a whole day,
 * not the cursor's instant, for the planner's sake: it multiplies the selectivity of a time bound with the
 * minute bound's, the same condition twice, and then with the row comparison's default third, and so expected
 * a few hundred rows where thousands were left; it read them all by bitmap and sorted them, several times
 * slower than reading in the index's order with the day's bound (bench/README.md, Measurements behind the code: Logs). The rows themselves are bounded exactly by the minute and the row comparison;
 * the time bound only prunes the days, which the day's edge does as well as the instant. Past year 9999 the
 * instant itself is the bound. A log indexed by the time is bounded by the instant (beyondRow): one condition.
 */
function cursorDays(side: '<' | '>', near: Near): RawBuilder<boolean> {
  if (side === '<') {
    const at = sql`${near.hi}::timestamptz`;
    const dayEnd = new Date(startOfUtcDay(new Date(near.hi)).getTime() + DAY_MS);
    if (dayEnd.getUTCFullYear() > 9999) return byMinute.timeBound('<=', at);
    return sql<boolean>`recorded_at < ${dayEnd.toISOString()}::timestamptz AND log_minute(recorded_at) <= log_minute(${at})`;
  }
  const at = sql`${near.lo}::timestamptz`;
  const dayStart = startOfUtcDay(new Date(near.lo));
  return sql<boolean>`recorded_at >= ${dayStart.toISOString()}::timestamptz AND log_minute(recorded_at) >= log_minute(${at})`;
}

/** Whole UTC days a newest-first read takes first (pageWindow): its reference's day and the one before. */
export const PAGE_WINDOW_DAYS = 2;

/**
 * Where a newest-first read's first statement starts (log.repository.ts newestFirst): the start of the day
 * before its reference's, the reference being the cursor's time, the range's end or now. Null when the read is
 * one statement anyway: its range starts inside the window, or the reference is outside the years PostgreSQL reads.
 */
export function pageWindow(
  range: { from: string | null; to: string | null },
  cursorAt: Date | string | undefined,
  now: Date,
): Date | null {
  const ref = cursorAt ?? range.to;
  const t = ref === null ? now.getTime() : new Date(ref).getTime();
  if (Number.isNaN(t)) return null;
  const start = new Date(startOfUtcDay(new Date(t)).getTime() - (PAGE_WINDOW_DAYS - 1) * DAY_MS);
  if (Number.isNaN(start.getTime()) || start.getUTCFullYear() < 1 || start.getUTCFullYear() > 9999) return null;
  if (range.from !== null && Date.parse(range.from) >= start.getTime()) return null;
  return start;
}
