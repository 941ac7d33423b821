import type { Db } from '../db/database.js';
import { restBetweenReads } from '../db/rest-between-reads.js';
import { Detector, cutsAfter, initialState, type DetectorState } from './detect.js';
import {
  claimScan,
  dropFrom,
  earliestUnsettled,
  dropUnsettled,
  findTerminalNews,
  findTripSettings,
  insertFound,
  lastPositionId,
  lockCursor,
  periodBoundaries,
  readPositions,
  refreshDays,
  releaseScan,
  restartPoint,
  saveCursor,
  terminalCompany,
  type TerminalNews,
} from './trips.repository.js';

/**
 * The detection job (docs/trips.md): follows each terminal's new positions and keeps its trips and stops.
 * Each run finds the terminals with positions it has not seen (the position log's ids since the scan's
 * place), and for each, in one transaction:
 * - new positions after the cursor: fed to the detection from its saved state, nothing read twice;
 * - positions older than the cursor (late or out of order), or a change of the vehicles that carried the
 *   terminal: the span from the settled stop before them is computed again from the log;
 * - what settled is inserted, the newest stop and the trip under way replace their previous version.
 */

/** Ids looked at again behind the scan's place: those of transactions still open at the last run. */
export const LOOKBACK_IDS = 10_000;
/** Positions read at once for one terminal. */
const CHUNK = 10_000;
/** At most this many terminals a run, so a run (and its lease) stays short; the rest wait for the next. */
const TERMINALS_PER_RUN = 2_000;
const LEASE_MS = 120_000;

export interface DetectionResult {
  terminals: number;
  recomputed: number;
}

export async function runTripDetection(db: Db, opts: { embedded: boolean }): Promise<DetectionResult> {
  const scanFrom = await claimScan(db, LEASE_MS);
  if (scanFrom === null) return { terminals: 0, recomputed: 0 };
  let reached = scanFrom;
  const result = { terminals: 0, recomputed: 0 };
  try {
    const news = await findTerminalNews(db, scanFrom, LOOKBACK_IDS);
    const now = news.slice(0, TERMINALS_PER_RUN);
    for (const item of now) {
      if (await followTerminal(db, item, opts.embedded)) result.recomputed++;
      result.terminals++;
      await restBetweenReads(opts.embedded);
    }
    // The scan moves to the last id it is done with: all, or just before the first terminal left for later.
    reached =
      news.length > now.length
        ? Math.max(scanFrom, news[now.length]!.min_id - 1)
        : Math.max(scanFrom, ...news.map((n) => n.max_id), news.length ? 0 : await lastPositionId(db, scanFrom));
  } finally {
    await releaseScan(db, reached);
  }
  return result;
}

/** Brings one terminal's trips and stops up to its newest position; true when a span was computed again. */
export async function followTerminal(db: Db, news: TerminalNews, embedded = false): Promise<boolean> {
  let recomputed = false;
  let more = true;
  while (more) {
    more = await db.transaction().execute(async (trx) => {
      const cursor = await lockCursor(trx, news.car_data_id);
      const rule = await findTripSettings(trx, await terminalCompany(trx, news.car_data_id));
      const boundaries = await periodBoundaries(trx, news.car_data_id);
      const cuts = boundaries.join(',');

      let state: DetectorState;
      let after: { at: Date | null; id: number };
      let throughId = cursor?.through_id ?? 0;
      // From when the rows changed, for the days the summary reads (trip_days).
      let changedFrom: Date | null = null;
      let everything = false;
      const changedAt = cursor ? firstChange(cursor.cuts, boundaries) : null;
      const late = cursor && news.min_at.getTime() <= cursor.through_at.getTime() ? news.min_at : null;
      const redoFrom = cursor === null ? null : earliest(late, changedAt);
      if (cursor === null || redoFrom !== null) {
        // From the settled stop before the change (or the first position): that span is computed again.
        const restart = cursor === null ? null : await restartPoint(trx, news.car_data_id, redoFrom!);
        await dropFrom(trx, news.car_data_id, restart);
        changedFrom = restart;
        everything = restart === null;
        state = initialState();
        after = { at: restart === null ? null : new Date(restart.getTime() - 1), id: 0 };
        if (cursor !== null) recomputed = true;
      } else {
        state = cursor.state as DetectorState;
        after = { at: cursor.through_at, id: Number.MAX_SAFE_INTEGER };
        changedFrom = await earliestUnsettled(trx, news.car_data_id);
        await dropUnsettled(trx, news.car_data_id);
      }
      // A terminal already up to date (a position this transaction sees only now, or nothing new) keeps its cursor.
      const points = await readPositions(trx, news.car_data_id, after, CHUNK);
      const detector = new Detector(rule, cutsAfter(boundaries), state).feed(points);
      const pending = detector.pending();
      await insertFound(trx, news.car_data_id, detector.settled, true);
      // The newest stop and the trip under way (put back as they were when nothing new came after all).
      await insertFound(trx, news.car_data_id, pending, false);
      const written = [...detector.settled.trips, ...detector.settled.stops, ...pending.trips, ...pending.stops];
      for (const r of written)
        if (changedFrom === null || r.start_at < changedFrom.getTime()) changedFrom = new Date(r.start_at);
      if (everything || changedFrom !== null) await refreshDays(trx, news.car_data_id, everything ? null : changedFrom);
      if (cursor !== null && redoFrom === null && points.length === 0) {
        // Nothing new after all (already taken by a run before).
        await saveCursor(trx, news.car_data_id, { ...cursor, through_id: Math.max(throughId, news.max_id) });
        return false;
      }
      for (const p of points) if (p.id > throughId) throughId = p.id;
      const last = points.at(-1);
      const full = points.length === CHUNK;
      await saveCursor(trx, news.car_data_id, {
        // Once caught up, every id the scan found for the terminal is taken.
        through_id: full ? throughId : Math.max(throughId, news.max_id),
        through_at: last ? new Date(last.t) : (cursor?.through_at ?? new Date(0)),
        state: detector.state,
        cuts,
      });
      // The next chunk continues from the saved state, as a new position would.
      news = { ...news, min_at: new Date(Number.MAX_SAFE_INTEGER / 1e3) };
      return full;
    });
    if (more) await restBetweenReads(embedded);
  }
  return recomputed;
}

const earliest = (a: Date | null, b: Date | null) => (a === null ? b : b === null ? a : a < b ? a : b);

/** The earliest boundary added or removed since the state was computed, or null when none changed. */
function firstChange(before: string, now: number[]): Date | null {
  const old = new Set(before ? before.split(',').map(Number) : []);
  const current = new Set(now);
  let first: number | null = null;
  for (const t of old) if (!current.has(t) && (first === null || t < first)) first = t;
  for (const t of now) if (!old.has(t) && (first === null || t < first)) first = t;
  return first === null ? null : new Date(first);
}
