import type { Db } from '../db/database.js';
import { cellKey, cellOf, cellSql, onGlobe, type Cell } from './cells.js';
import { findCells, requestCells } from './geocode.repository.js';

/** At most this many unknown cells are asked for by one read (a long route's points wait for a later look). */
export const QUEUE_PER_READ = 200;

/** Whether addresses are looked up at all (`REVERSE_GEOCODER_URL=off` turns them off; the cache still answers). */
export const geocodingOn = (config: { REVERSE_GEOCODER_URL: string }) => config.REVERSE_GEOCODER_URL !== 'off';

type Point = { lat: number | null; lng: number | null };
export type AddressOf = (lat: number | null, lng: number | null) => string | null;

/**
 * The cached addresses of some points, in one read: never waits for the provider. With `queue`, the cells the
 * cache lacks are left for the geocode job (fill.ts), so a later read finds them.
 */
export async function addressesAt(db: Db, points: readonly Point[], opts: { queue: boolean }): Promise<AddressOf> {
  const cells = new Map<string, Cell>();
  for (const p of points)
    if (p.lat !== null && p.lng !== null && onGlobe(p.lat, p.lng)) {
      const c = cellOf(p.lat, p.lng);
      cells.set(cellKey(c), c);
    }
  const known = await findCells(db, [...cells.values()]);
  if (opts.queue) {
    const missing = [...cells].filter(([k]) => !known.has(k)).map(([, c]) => c);
    await requestCells(db, missing.slice(0, QUEUE_PER_READ));
  }
  return (lat, lng) =>
    lat === null || lng === null || !onGlobe(lat, lng) ? null : (known.get(cellKey(cellOf(lat, lng))) ?? null);
}

/** Rows with lat/lng given the `address` of their cell where the cache has one (the CSV export's row path). */
export async function withAddresses<R extends Record<string, unknown>>(
  db: Db,
  rows: readonly R[],
): Promise<(R & { address: string | null })[]> {
  const num = (v: unknown) => (typeof v === 'number' ? v : null);
  const addressOf = await addressesAt(
    db,
    rows.map((r) => ({ lat: num(r.lat), lng: num(r.lng) })),
    { queue: false },
  );
  return rows.map((r) => ({ ...r, address: addressOf(num(r.lat), num(r.lng)) }));
}

/**
 * The same for SQL (the export's COPY path): a join giving each row of a table with `lat`/`lng` the column
 * `address` of its cell; the cache's own columns are named so nothing else of the row is shadowed.
 */
export const cellAddressJoin = (): string => {
  const c = cellSql('lat', 'lng');
  return ` LEFT JOIN LATERAL (SELECT address FROM geocode_cells WHERE cell_lat = ${c.lat} AND cell_lng = ${c.lng}) AS geo ON true`;
};
