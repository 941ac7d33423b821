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

/** recorded_at within [from, to] (ISO instants), its minutes bounding the index's range (as text: rangeText). */
export const inRange = (from: string, to: string): RawBuilder<boolean> =>
  sql<boolean>`recorded_at >= ${from}::timestamptz AND recorded_at <= ${to}::timestamptz
    AND log_minute(recorded_at) BETWEEN log_minute(${from}::timestamptz) AND log_minute(${to}::timestamptz)`;

/** inRange as text, for a value made SQL literal by `literal`. */
export const rangeText = (from: string, to: string, literal: (v: string) => string) => {
  const [a, b] = [`${literal(from)}::timestamptz`, `${literal(to)}::timestamptz`];
  return `recorded_at >= ${a} AND recorded_at <= ${b} AND log_minute(recorded_at) BETWEEN log_minute(${a}) AND log_minute(${b})`;
};

/**
 * Rows before (`<`, newest first) or after (`>`, oldest first) the row `id` of the same log, in the
 * order above: one subquery reads the cursor row's own times (microseconds a JS Date would round away).
 * `carDataId` narrows the cursor lookup to the terminal's rows (a log page's cursor names its terminal).
 */
export function beyondRow(table: string, side: '<' | '>', id: number, carDataId?: string): RawBuilder<boolean> {
  const terminal = carDataId === undefined ? sql`` : sql` AND c.car_data_id = ${carDataId}`;
  return sql<boolean>`(log_minute(recorded_at), recorded_at, id) ${sql.raw(side)} (SELECT log_minute(c.recorded_at), c.recorded_at, c.id FROM ${sql.table(table)} c WHERE c.id = ${id}${terminal})`;
}
