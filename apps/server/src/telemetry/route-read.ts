import type { Db } from '../db/database.js';
import { restBetweenReads } from '../db/rest-between-reads.js';
import {
  countGps,
  findLastRoutePoint,
  findRoutePage,
  findRouteSlices,
  gpsSpan,
  TURNS_PER_SLICE,
  type LogFilter,
  type RoutePoint,
} from './log.repository.js';

/**
 * Points per database read on the embedded database. PGlite hands rows over in the server's own process,
 * holding it while it does (bench/README.md, Measurements behind the code: The embedded database): 1,000 points (or a thinned read over about 5,000 stored ones) keep a read at a few
 * tens of milliseconds, so other calls wait no longer. PostgreSQL works in its own process and its rows are
 * parsed as they arrive, so it reads the range (at most `cap` points, counted first) in one statement:
 * read in chunks of 10,000, each chunk's plan could read and sort every later point of the range again
 * (a bitmap scan of the day partitions: 86,400 points took 10 statements and 1.5-1.8 times one flat table's
 * time in the bench, the same rows in one statement about as long as flat).
 */
export const ROUTE_CHUNK = 1000;
const routeChunk = (embedded: boolean, cap: number) => (embedded ? ROUTE_CHUNK : cap + 1);
const SCAN_CHUNK = 5000;

/**
 * The route in time order, read in chunks, and the number of stored points in the range. Up to
 * `cap` points it reads them all; above, the sharpest turns of equal time slices, `cap` points in all, so any
 * range costs a bounded read (docs/telemetry.md). No query ever counts or reads the whole range.
 */
export async function readRoute(
  db: Db,
  f: LogFilter,
  cap: number,
  embedded: boolean,
): Promise<{ points: RoutePoint[]; total: number }> {
  const points: RoutePoint[] = [];
  if ((await countGps(db, f, cap + 1)) <= cap) {
    const chunk = routeChunk(embedded, cap);
    for (let after: RoutePoint | null = null; ;) {
      const started = performance.now();
      const page = await findRoutePage(db, f, after && { id: Number(after.id), at: after.recorded_at }, chunk);
      for (const p of page) points.push(p);
      if (page.length < chunk) return { points, total: points.length };
      after = page.at(-1)!;
      await restBetweenReads(embedded, performance.now() - started);
    }
  }
  const span = await gpsSpan(db, f);
  if (!span) return { points, total: 0 };
  const { first, last } = span;
  const slice = (Math.max(1, last - first) * TURNS_PER_SLICE) / cap;
  // Slices per read, adjusted after each read so that the next one scans about SCAN_CHUNK stored points. A
  // slice holds at least TURNS_PER_SLICE of them (the range has more than `cap`); the first read guesses 4 times that.
  let slices = Math.ceil(SCAN_CHUNK / (4 * TURNS_PER_SLICE));
  let total = 0;
  for (let lo = first; lo <= last;) {
    const hi = lo + slices * slice;
    const started = performance.now();
    const part = await findRouteSlices(db, f, {
      origin: first,
      slice,
      lo: lo === first ? null : lo,
      hi: hi > last ? null : hi,
    });
    for (const p of part.points) points.push(p);
    total += part.stored;
    slices = Math.max(1, Math.min(slices * 4, Math.floor((slices * SCAN_CHUNK) / Math.max(1, part.stored))));
    lo = hi;
    await restBetweenReads(embedded, performance.now() - started);
  }
  // A slice keeps its sharpest turns, and the last slice may start before the last point (rounding): the
  // route still starts and ends where it did.
  if (Number(span.start.id) !== Number(points[0]?.id)) points.unshift(span.start);
  const end = await findLastRoutePoint(db, f);
  if (end && Number(end.id) !== Number(points.at(-1)?.id)) points.push(end);
  return { points, total };
}
