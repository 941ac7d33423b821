import type { Db } from '../db/database.js';
import { breathe } from '../db/breathe.js';
import { findRoutePage, findRouteSlices, gpsSpan, type LogFilter, type RoutePoint } from './log.repository.js';

/** Points per database read: a few tens of milliseconds of PGlite, so other calls wait no longer. */
export const ROUTE_CHUNK = 10_000;

/**
 * The route in time order, read in chunks. Up to `cap` points it reads them all; above, the first
 * point of each of `cap` equal time slices, so any range costs a bounded read (docs/telemetry.md).
 */
export async function readRoute(db: Db, f: LogFilter, total: number, cap: number, chunk = ROUTE_CHUNK): Promise<RoutePoint[]> {
  const points: RoutePoint[] = [];
  if (total <= cap) {
    for (let afterId: number | null = null; ; await breathe()) {
      const page = await findRoutePage(db, f, afterId, chunk);
      for (const p of page) points.push(p);
      if (page.length < chunk) return points;
      afterId = Number(page.at(-1)!.id);
    }
  }
  const { first, last } = await gpsSpan(db, f);
  const slice = Math.max(1, last - first) / cap;
  // Slices per read, so that a read holds about `chunk` stored points if they are spread evenly.
  const span = Math.max(1, Math.floor((cap * chunk) / total)) * slice;
  for (let lo = first; lo <= last; lo += span) {
    const part = await findRouteSlices(db, f, {
      origin: first,
      slice,
      lo: lo === first ? null : lo,
      hi: lo + span > last ? null : lo + span,
    });
    for (const p of part) points.push(p);
    await breathe();
  }
  return points;
}
