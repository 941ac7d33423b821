import { sql } from 'kysely';
import type { Db } from './database.js';

/** autovacuum's defaults: a table is analysed again once this many rows, plus this share of its rows, changed. */
const ANALYZE_THRESHOLD = 50;
const ANALYZE_SCALE_FACTOR = 0.1;
/** autovacuum's defaults: a table is vacuumed once this many rows, plus this share of its rows, are dead. */
const VACUUM_THRESHOLD = 50;
const VACUUM_SCALE_FACTOR = 0.2;

/**
 * The embedded database (PGlite) runs no autovacuum, so nothing ever gathers its tables' statistics: a
 * day partition of the GPS log holding a day's rows was planned as a few dozen, and a CSV export read it with a
 * bitmap scan and a sort of every row older than its cursor, batch after batch: an export of minutes where an
 * analysed table takes seconds (bench/README.md, Measurements behind the code: The embedded database). This does what autovacuum's analyse does on PostgreSQL: each table
 * whose rows changed by more than autovacuum's threshold since its last analyse is analysed (the
 * server's jobs run it on the embedded database). Returns the tables analysed.
 */
export const analyzeChangedTables = (db: Db) =>
  upkeepPast(db, 'ANALYZE', 'n_mod_since_analyze', ANALYZE_THRESHOLD, ANALYZE_SCALE_FACTOR);

/**
 * What autovacuum's vacuum does on PostgreSQL, for the embedded database, which has none: each table whose dead
 * rows (deleted, or the old versions of updated ones) are more than autovacuum's threshold is vacuumed, so their
 * space is used again and index-only scans find the pages all-visible. Without it nothing ever took a dead row
 * away: the jobs' prunes (sign-in attempts, batch receipts, sent mail) and every update left the tables and
 * their indexes growing, and every count and scan slower with them (bench/README.md, Measurements behind the code: The embedded
 * database). Returns the tables vacuumed
 * (the server's jobs run it on the embedded database, before the analyse).
 */
export const vacuumDeadTables = (db: Db) =>
  upkeepPast(db, 'VACUUM', 'n_dead_tup', VACUUM_THRESHOLD, VACUUM_SCALE_FACTOR);

/**
 * Runs `command` on each table whose activity counter is past autovacuum's threshold for it (`threshold` rows
 * plus `scale` of the table's live rows), the most changed first; returns the tables.
 */
async function upkeepPast(
  db: Db,
  command: 'ANALYZE' | 'VACUUM',
  counter: 'n_mod_since_analyze' | 'n_dead_tup',
  threshold: number,
  scale: number,
): Promise<string[]> {
  const { rows } = await sql<{ schema: string; table: string }>`
    SELECT schemaname AS schema, relname AS table FROM pg_stat_user_tables
    WHERE ${sql.ref(counter)} > ${threshold}::float8 + ${scale}::float8 * n_live_tup
    ORDER BY ${sql.ref(counter)} DESC`.execute(db);
  for (const r of rows) await sql`${sql.raw(command)} ${sql.table(`${r.schema}.${r.table}`)}`.execute(db);
  return rows.map((r) => r.table);
}
