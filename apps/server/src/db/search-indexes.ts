import { sql } from 'kysely';
import type { Db } from './database.js';

/** The lists' tables whose GIN indexes serve the console's searches (migrations list_search_trigram, _bigrams). */
const LIST_TABLES = ['cars', 'car_users', 'accounts', 'devices'];
/** A table is rebuilt once its rewritten rows since the last rebuild pass this many, plus this share of its rows. */
const REBUILD_THRESHOLD = 50;
const REBUILD_SCALE_FACTOR = 0.1;

/**
 * Rebuilds the search (GIN) indexes of each list table rewritten by more than a tenth of its rows since they were
 * last rebuilt, and returns the indexes rebuilt. A GIN index written through at once (`fastupdate = off`, migration
 * gin_without_pending_list) takes the entries of every new row version one by one, and once the old versions are
 * vacuumed away its posting trees are read several times slower than the same entries built in one go: every
 * terminal is written twice when it is registered (its row, then the vehicle carrying it), and once a fleet of such
 * terminals was vacuumed the ipaddr search took about five times as long as after a rebuild, from an index twice
 * the size (bench/README.md, Measurements behind the code: Lists; reproduced on a table of its own).
 *
 * Rewritten rows are what pg_stat_user_tables counts as updates that were not HOT (they wrote new index entries)
 * plus deletions; search_index_upkeep keeps each table's count at its last rebuild (a count lower than that, after
 * the statistics were reset, counts from zero). On PostgreSQL the indexes are rebuilt CONCURRENTLY, so reads and
 * writes go on; an index such a rebuild left invalid when its process died (`…_ccnew`) is dropped first. One
 * instance at a time (a session advisory lock); another finding it held returns at once.
 */
export async function rebuildSearchIndexes(db: Db, opts: { concurrently: boolean }): Promise<string[]> {
  const concurrently = sql.raw(opts.concurrently ? 'CONCURRENTLY ' : '');
  return db.connection().execute(async (conn) => {
    const lock = sql`hashtext('fleet:search-indexes')`;
    const { rows: locked } = await sql<{ got: boolean }>`SELECT pg_try_advisory_lock(${lock}) AS got`.execute(conn);
    if (!locked[0]?.got) return [];
    try {
      const { rows: leftovers } = await sql<{ name: string }>`
        SELECT i.relname AS name FROM pg_index x
          JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_class t ON t.oid = x.indrelid
        WHERE NOT x.indisvalid AND t.relname = ANY(${LIST_TABLES}::text[]) AND i.relname LIKE '%\\_ccnew%'
          AND t.relnamespace = current_schema()::regnamespace`.execute(conn);
      for (const { name } of leftovers) await sql`DROP INDEX ${concurrently}${sql.id(name)}`.execute(conn);

      const { rows: tables } = await sql<{ table: string; rewrites: string; live: string; then: string | null }>`
        SELECT s.relname AS table, s.n_tup_upd - s.n_tup_hot_upd + s.n_tup_del AS rewrites, s.n_live_tup AS live,
               u.rewrites AS then
        FROM pg_stat_user_tables s LEFT JOIN search_index_upkeep u ON u.table_name = s.relname
        WHERE s.relname = ANY(${LIST_TABLES}::text[]) AND s.schemaname = current_schema()
        ORDER BY s.relname`.execute(conn);
      const rebuilt: string[] = [];
      for (const t of tables) {
        const rewrites = Number(t.rewrites);
        const then = t.then === null ? 0 : Number(t.then);
        const since = rewrites < then ? rewrites : rewrites - then;
        if (since <= REBUILD_THRESHOLD + REBUILD_SCALE_FACTOR * Number(t.live)) continue;
        const { rows: indexes } = await sql<{ name: string }>`
          SELECT i.relname AS name FROM pg_index x
            JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_am a ON a.oid = i.relam
          WHERE a.amname = 'gin' AND x.indisvalid AND x.indrelid = to_regclass(${t.table})
          ORDER BY i.relname`.execute(conn);
        for (const { name } of indexes) {
          await sql`REINDEX INDEX ${concurrently}${sql.id(name)}`.execute(conn);
          rebuilt.push(name);
        }
        await sql`INSERT INTO search_index_upkeep (table_name, rewrites, rebuilt_at) VALUES (${t.table}, ${rewrites}, now())
          ON CONFLICT (table_name) DO UPDATE SET rewrites = excluded.rewrites, rebuilt_at = excluded.rebuilt_at`.execute(
          conn,
        );
      }
      return rebuilt;
    } finally {
      await sql`SELECT pg_advisory_unlock(${lock})`.execute(conn);
    }
  });
}
