import { sql, type SqlBool } from 'kysely';

/**
 * The one rule of terminal periods (docs/security.md "Terminal periods"): a company reads what a terminal
 * reported while it sat on one of the company's live vehicles, never what it reported for a company it
 * served before or after. Every read path applies it through this module, in the form it needs:
 * - a log, a trip or an export: the rows `recorded_at` within the company's windows (`withinWindows`,
 *   `withinWindowsText` for COPY, `inWindows` for rows already read);
 * - the latest state: the company's open period, from its start (`readsLatest`, `partSince`);
 * - the live push: the record's owner at the time it was stored (`pushedPart`).
 */

/** A stretch of time, open at either end where null. */
export interface TimeWindow {
  from: Date | null;
  to: Date | null;
}

/**
 * A company's periods on a terminal (ordered by start) merged into windows, or null when they cover all
 * time (the terminal has only ever been the company's).
 */
export function mergeWindows(periods: readonly TimeWindow[]): TimeWindow[] | null {
  const merged: TimeWindow[] = [];
  for (const p of periods) {
    const w = { from: p.from === null ? null : new Date(p.from), to: p.to === null ? null : new Date(p.to) };
    const last = merged.at(-1);
    const touches = last && (last.to === null || (w.from !== null && w.from.getTime() <= last.to.getTime()));
    if (!last || !touches) merged.push(w);
    else if (last.to !== null && (w.to === null || w.to.getTime() > last.to.getTime())) last.to = w.to;
  }
  const all = merged.length === 1 && merged[0]!.from === null && merged[0]!.to === null;
  return all ? null : merged;
}

/** Whether a time lies in one of the windows (null windows: every time). */
export const inWindows = (at: Date, windows: readonly TimeWindow[] | null) =>
  windows === null || windows.some((w) => (w.from === null || at >= w.from) && (w.to === null || at < w.to));

/** `recorded_at` within one of the windows (none: nothing), as a condition of a Kysely query. */
export function withinWindows(windows: readonly TimeWindow[]) {
  if (windows.length === 0) return sql<SqlBool>`false`;
  const one = (w: TimeWindow) =>
    sql`(${w.from === null ? sql`true` : sql`recorded_at >= ${w.from.toISOString()}`} and ${
      w.to === null ? sql`true` : sql`recorded_at < ${w.to.toISOString()}`
    })`;
  return sql<SqlBool>`(${sql.join(windows.map(one), sql` or `)})`;
}

/**
 * withinWindows as SQL text with literals, for a statement that takes no parameters (COPY): ' AND …', or
 * '' for null windows. `literal` writes a time as an escaped timestamptz literal.
 */
export function withinWindowsText(windows: readonly TimeWindow[] | null | undefined, literal: (d: Date) => string) {
  if (!windows) return '';
  if (windows.length === 0) return ' AND false';
  const one = (w: TimeWindow) =>
    `(${w.from === null ? 'true' : `recorded_at >= ${literal(w.from)}`} AND ${w.to === null ? 'true' : `recorded_at < ${literal(w.to)}`})`;
  return ` AND (${windows.map(one).join(' OR ')})`;
}

/**
 * Whether a latest state (its time: the record's, else when the terminal was last heard) is the
 * reader's: reported within a window still open. A state reported for the previous company is not.
 */
export function readsLatest(
  state: { recorded_at?: Date | string | null; last_seen_at: Date | string },
  windows: readonly TimeWindow[] | null,
): boolean {
  if (!windows) return true;
  const at = new Date(state.recorded_at ?? state.last_seen_at);
  return windows.some((w) => w.to === null && (w.from === null || at >= w.from));
}

type Moment = Date | string | null;
/** A state: its times, and each field group's time column and fields. */
export type StateRow = { recorded_at: Moment; last_seen_at: Date | string } & Record<string, unknown>;

/**
 * What a company may see of a latest state whose open period began at `periodStart` (null: since ever):
 * nothing when the state is from before it, and no field group reported before it (each group: its time
 * column first, then its fields; a group without a time counts at the state's).
 */
export function partSince<R extends StateRow>(
  r: R,
  periodStart: Moment,
  groups: readonly (readonly string[])[],
): R | null {
  // A period since ever (most vehicles; the super admin's reads): all of it, no time to compare.
  if (periodStart === null) return r;
  const start = new Date(periodStart).getTime();
  const since = (at: unknown) => new Date((at as Moment) ?? r.recorded_at ?? r.last_seen_at).getTime() >= start;
  if (!since(null)) return null;
  const own = { ...r } as Record<string, unknown>;
  for (const group of groups) if (!since(r[group[0]!])) for (const column of group) own[column] = null;
  return own as R;
}

/**
 * What a live stream of `company` (null: the super admin) gets of a stored record: the whole for the
 * super admin; for a company, only a record its vehicle owned when it was stored, of its own period.
 */
export function pushedPart<R extends StateRow & { owner_company_id: string | null; period_started_at: Moment }>(
  r: R,
  company: string | null,
  groups: readonly (readonly string[])[],
): R | null {
  if (company === null) return r;
  return r.owner_company_id === company ? partSince(r, r.period_started_at, groups) : null;
}
