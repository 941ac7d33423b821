import { sql } from 'kysely';
import type { Db } from '../db/database.js';
import { cellKey, cellSql, type Cell } from './cells.js';

/** The cache of addresses by cell and the deployment's rate limit (migration geocode, docs/geocoding.md). */

const lats = (cells: readonly Cell[]) => cells.map((c) => c.cell_lat);
const lngs = (cells: readonly Cell[]) => cells.map((c) => c.cell_lng);

/** The cells known to the cache: their address (null: none, or not looked up yet), by cellKey. */
export async function findCells(db: Db, cells: readonly Cell[]): Promise<Map<string, string | null>> {
  if (cells.length === 0) return new Map();
  const { rows } = await sql<Cell & { address: string | null }>`
    SELECT g.cell_lat, g.cell_lng, g.address
      FROM unnest(${lats(cells)}::int[], ${lngs(cells)}::int[]) AS k(cell_lat, cell_lng)
      JOIN geocode_cells g ON g.cell_lat = k.cell_lat AND g.cell_lng = k.cell_lng`.execute(db);
  return new Map(rows.map((r) => [cellKey(r), r.address]));
}

/** Cells the job should look up, unless the cache has them already. */
export async function requestCells(db: Db, cells: readonly Cell[]): Promise<void> {
  if (cells.length === 0) return;
  await sql`
    INSERT INTO geocode_cells (cell_lat, cell_lng)
    SELECT * FROM unnest(${lats(cells)}::int[], ${lngs(cells)}::int[])
    ON CONFLICT DO NOTHING`.execute(db);
}

const raw = (c: { lat: string; lng: string }) => sql.raw(`${c.lat}, ${c.lng}`);

/**
 * The positions stored since the last look, as cells for the job: every terminal's latest position, and the
 * stops and trip ends that began within `recentMs`. One statement per source; cells known already are skipped.
 */
export async function discoverCells(db: Db, recentMs: number): Promise<void> {
  const since = new Date(Date.now() - recentMs);
  const sources = [
    sql`SELECT ${raw(cellSql('lat', 'lng'))} FROM device_latest_state WHERE lat IS NOT NULL AND lng IS NOT NULL`,
    sql`SELECT ${raw(cellSql('lat', 'lng'))} FROM stops WHERE start_at >= ${since}`,
    sql`SELECT ${raw(cellSql('start_lat', 'start_lng'))} FROM trips WHERE start_at >= ${since}
        UNION SELECT ${raw(cellSql('end_lat', 'end_lng'))} FROM trips WHERE start_at >= ${since}`,
  ];
  for (const source of sources)
    await sql`
      INSERT INTO geocode_cells (cell_lat, cell_lng)
      SELECT DISTINCT a, b FROM (${source}) AS s(a, b)
       WHERE a IS NOT NULL AND b IS NOT NULL AND NOT EXISTS (SELECT 1 FROM geocode_cells g WHERE g.cell_lat = s.a AND g.cell_lng = s.b)
      ON CONFLICT DO NOTHING`.execute(db);
}

/** One cell due for a lookup, held for `leaseMs` (another instance takes the next), with its attempts so far. */
export async function claimCell(db: Db, leaseMs: number): Promise<(Cell & { attempts: number }) | null> {
  const { rows } = await sql<Cell & { attempts: number }>`
    UPDATE geocode_cells SET next_attempt_at = now() + ${`${leaseMs} milliseconds`}::interval
     WHERE (cell_lat, cell_lng) = (
       SELECT cell_lat, cell_lng FROM geocode_cells
        WHERE state = 'pending' AND next_attempt_at <= now()
        ORDER BY next_attempt_at LIMIT 1 FOR UPDATE SKIP LOCKED)
    RETURNING cell_lat, cell_lng, attempts`.execute(db);
  return rows[0] ?? null;
}

/**
 * The deployment's next free request slot, taken, when it is within `horizonMs` and no back-off holds; the
 * slots lie `intervalMs` apart whichever instance takes them. Null: wait for a later run.
 */
export async function takeSlot(
  db: Db,
  intervalMs: number,
  horizonMs: number,
): Promise<{ slot: Date; waitMs: number } | null> {
  // The wait is the database's own clock's, so instances whose clocks differ still keep the slots apart.
  const { rows } = await sql<{ slot: Date | string; wait_ms: number | string }>`
    UPDATE geocode_limiter
       SET next_slot_at = greatest(next_slot_at, clock_timestamp()) + ${`${intervalMs} milliseconds`}::interval
     WHERE id = 1 AND paused_until <= clock_timestamp()
       AND greatest(next_slot_at, clock_timestamp()) <= clock_timestamp() + ${`${horizonMs} milliseconds`}::interval
    RETURNING next_slot_at - ${`${intervalMs} milliseconds`}::interval AS slot,
      extract(epoch FROM next_slot_at - ${`${intervalMs} milliseconds`}::interval - clock_timestamp()) * 1000 AS wait_ms`.execute(
    db,
  );
  const row = rows[0];
  return row ? { slot: new Date(row.slot), waitMs: Math.max(0, Number(row.wait_ms)) } : null;
}

/** A claimed cell given back untouched (no slot was free). */
export async function releaseCell(db: Db, cell: Cell): Promise<void> {
  await db
    .updateTable('geocode_cells')
    .set({ next_attempt_at: sql`now()` })
    .where('cell_lat', '=', cell.cell_lat)
    .where('cell_lng', '=', cell.cell_lng)
    .execute();
}

/** The provider's answer for a cell; the provider works again, so the back-off ends. */
export async function saveAnswer(db: Db, cell: Cell, answer: { address: string | null; muniCd: string | null }) {
  await db
    .updateTable('geocode_cells')
    .set({ state: 'done', address: answer.address, muni_cd: answer.muniCd, looked_up_at: sql`now()` })
    .where('cell_lat', '=', cell.cell_lat)
    .where('cell_lng', '=', cell.cell_lng)
    .execute();
  await db.updateTable('geocode_limiter').set({ failures: 0 }).where('id', '=', 1).where('failures', '>', 0).execute();
}

/**
 * A failed lookup: the cell waits `retryMs` (or gives up as `failed` after `maxAttempts`), and the whole
 * deployment pauses for baseMs × 2^(failures in a row), at most maxMs.
 */
export async function saveFailure(
  db: Db,
  cell: Cell & { attempts: number },
  o: { maxAttempts: number; retryMs: number; baseMs: number; maxMs: number },
) {
  const attempts = cell.attempts + 1;
  await db
    .updateTable('geocode_cells')
    .set({
      attempts,
      state: attempts >= o.maxAttempts ? 'failed' : 'pending',
      next_attempt_at: sql`now() + ${`${o.retryMs * attempts} milliseconds`}::interval`,
    })
    .where('cell_lat', '=', cell.cell_lat)
    .where('cell_lng', '=', cell.cell_lng)
    .execute();
  await sql`
    UPDATE geocode_limiter SET failures = failures + 1,
           paused_until = clock_timestamp()
             + least(${o.baseMs}::float8 * power(2, least(failures, 20)), ${o.maxMs}::float8) * interval '1 millisecond'
     WHERE id = 1`.execute(db);
}

/** Cells waiting for the job (for the metrics and tests). */
export async function pendingCells(db: Db): Promise<number> {
  const row = await db
    .selectFrom('geocode_cells')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('state', '=', 'pending')
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
