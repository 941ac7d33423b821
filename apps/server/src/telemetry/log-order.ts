import { sql, type RawBuilder } from 'kysely';

/*
 * How a per-terminal read of a log uses its index, (car_data_id, log_minute(recorded_at)) (migration
 * telemetry_minute_index): in time order means by the minute first (the index's order; a partitioned
 * log merges its days on it) and then by recorded_at and id within the minute, which PostgreSQL does as
 * an incremental sort of one minute's rows at a time, so a page still stops after its rows. A range and
 * a keyset cursor are given by their minutes as well, which is what the index can find. Every condition
 * here is on the log's own columns, unqualified: the log is the read's only table.
 */

/** Newest first as text (the CSV export's COPY takes no parameters): the order of the console's log pages. */
export const NEWEST_FIRST_TEXT = 'log_minute(recorded_at) DESC, recorded_at DESC, id DESC';
export const NEWEST_FIRST = sql.raw(NEWEST_FIRST_TEXT);
/** Oldest first: the order of a route. */
export const OLDEST_FIRST = sql`log_minute(recorded_at), recorded_at, id`;

/** The index's own order (the minute alone): for work that only needs the rows in slices, the retention's. */
export const INDEX_ORDER = sql`log_minute(recorded_at)`;

/** A bound on recorded_at: at or after, at or before, strictly before. */
type Bound = '>=' | '<=' | '<';
/** The bound the minute keeps: a strict bound still takes rows of its own minute. */
const minuteBound = (op: Bound) => (op === '>=' ? '>=' : '<=');

/** recorded_at `op` `at` (a timestamptz expression), its minute bounding the index's range as well. */
export const timeBound = (op: Bound, at: RawBuilder<unknown>): RawBuilder<boolean> =>
  sql<boolean>`recorded_at ${sql.raw(op)} ${at} AND log_minute(recorded_at) ${sql.raw(minuteBound(op))} log_minute(${at})`;

/** timeBound as text, `at` already SQL (the CSV export's COPY takes no parameters). */
const boundText = (op: Bound, at: string) =>
  `recorded_at ${op} ${at} AND log_minute(recorded_at) ${minuteBound(op)} log_minute(${at})`;

/** recorded_at within [from, to] (ISO instants). */
export const inRange = (from: string, to: string): RawBuilder<boolean> =>
  sql<boolean>`${timeBound('>=', sql`${from}::timestamptz`)} AND ${timeBound('<=', sql`${to}::timestamptz`)}`;

/** inRange as text, for values made SQL literals by `literal`. */
export const rangeText = (from: string, to: string, literal: (v: string) => string) =>
  `${boundText('>=', `${literal(from)}::timestamptz`)} AND ${boundText('<=', `${literal(to)}::timestamptz`)}`;

/** A keyset cursor: a row's id and, when known, its recorded_at (a Date, or an ISO instant an answer gave). */
export interface RowCursor {
  id: number;
  at?: Date | string | undefined;
}

/**
 * Rows before (`<`, newest first) or after (`>`, oldest first) the row `cursor.id` of the same log, in the
 * order above: one subquery reads the cursor row's own times (microseconds a JS Date would round away).
 * `carDataId` narrows the cursor lookup to the terminal's rows (a log page's cursor names its terminal);
 * `cursor.at`, good to the millisecond, to that instant's minute of the terminal in its day's partition
 * (otherwise the lookup probes every day's partition for the id). A cursor row that is not there, or
 * not at that time, leaves nothing beyond it: an empty page, as an unknown id does.
 */
export function beyondRow(table: string, side: '<' | '>', cursor: RowCursor, carDataId?: string): RawBuilder<boolean> {
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
  if (!near)
    return sql<boolean>`(log_minute(recorded_at), recorded_at, id) ${sql.raw(side)} (SELECT log_minute(c.recorded_at), c.recorded_at, c.id ${from})`;
  // The rows beyond lie on the cursor's side of its time, which PostgreSQL prunes the days by (the row
  // comparison it cannot) and the index's minutes bound: a page deep in the log merges the days before the
  // cursor's, not all of them. With that bound the comparison leaves the minute out: the minute follows
  // the time, so (minute, time, id) and (time, id) order rows alike, and the minute is not worked out
  // again for every row the page reads (a deep battery page read 10,000 rows for its 1,000: 7.4-10 ms with
  // it, 5.5-6.3 without, PostgreSQL 15).
  const lookup = sql`SELECT c.recorded_at, c.id ${from} AND ${inRange(near.lo, near.hi)}`;
  return sql<boolean>`(recorded_at, id) ${sql.raw(side)} (${lookup}) AND ${cursorDays(side, near)}`;
}

/** The logs are partitioned by UTC day (partitions.repository.ts). */
export const DAY_MS = 86_400_000;
export const startOfUtcDay = (t: Date) => new Date(Math.floor(t.getTime() / DAY_MS) * DAY_MS);

/**
 * The partitions a page beyond a cursor may read: up to the end of the cursor's UTC day (newest first) or from
 * its start (oldest first), and the index's minutes up to (from) the cursor's. The time bound is a whole day,
 * not the cursor's instant, for the planner's sake: it multiplies the selectivity of a time bound with the
 * minute bound's, the same condition twice, and then with the row comparison's default third, and so expected
 * a few hundred rows where thousands were left; it read them all by bitmap and sorted them (a battery page
 * 90,000 rows deep: 5.1 ms, against 1.1 ms in the index's order with the day's bound, PostgreSQL 15). The
 * rows themselves are bounded exactly by the minute and the row comparison; the time bound only prunes the
 * days, which the day's edge does as well as the instant. Past year 9999 the instant itself is the bound.
 */
function cursorDays(side: '<' | '>', near: { lo: string; hi: string }): RawBuilder<boolean> {
  if (side === '<') {
    const at = sql`${near.hi}::timestamptz`;
    const dayEnd = new Date(startOfUtcDay(new Date(near.hi)).getTime() + DAY_MS);
    if (dayEnd.getUTCFullYear() > 9999) return timeBound('<=', at);
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
