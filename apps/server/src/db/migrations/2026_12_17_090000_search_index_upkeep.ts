import { sql, type Kysely } from 'kysely';

/**
 * What the jobs module remembers of the lists' search indexes (db/search-indexes.ts): for each of the four lists'
 * tables, its count of rewritten rows (updates that wrote new index entries, and deletions: pg_stat_user_tables)
 * when its GIN indexes were last rebuilt. A table rewritten by more than a tenth of its rows since has them rebuilt.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE TABLE search_index_upkeep (
    table_name text PRIMARY KEY,
    rewrites bigint NOT NULL,
    rebuilt_at timestamptz NOT NULL DEFAULT now()
  )`.execute(db);
}
