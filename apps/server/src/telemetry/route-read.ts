import type { Db } from '../db/database.js';
import { breathe } from '../db/breathe.js';
import { findRoutePage, findRouteSlices, gpsSpan, type LogFilter, type RoutePoint } from './log.repository.js';

/**
 * Points per database read. PGlite hands rows over at roughly 20 µs each: 1,000 points (or a
 * thinned read over about 5,000 stored ones) keep a read at a few tens of milliseconds, so other
 * calls wait no longer.
 */
export const ROUTE_CHUNK = 1000;
const SCAN_CHUNK = 5000;

/**
 * The route in time order, read in chunks. Up to `cap` points it reads them all; above, the first
 * point of each of `cap` equal time slices, so any range costs a bounded read (docs/telemetry.md).
 */
export async function readRoute(db: Db, f: LogFilter, total: number, cap: number): Promise<RoutePoint[]> {
  const points: RoutePoint[] = [];
  if (total <= cap) {
    for (let afterId: number | null = null; ; await breathe()) {
      const page = await findRoutePage(db, f, afterId, ROUTE_CHUNK);
      for (const p of page) points.push(p);
      if (page.length < ROUTE_CHUNK) return points;
      afterId = Number(page.at(-1)!.id);
    }
  }
  const { first, last } = await gpsSpan(db, f);
  const slice = Math.max(1, last - first) / cap;
  // Slices per read, so that a read scans about SCAN_CHUNK stored points if they are spread evenly.
  const span = Math.max(1, Math.floor((cap * SCAN_CHUNK) / total)) * slice;
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
