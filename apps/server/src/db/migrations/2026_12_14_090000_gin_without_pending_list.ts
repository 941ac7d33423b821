import { sql, type Kysely } from 'kysely';

/**
 * Every GIN index (the lists' trigram and bigram searches of vehicles, customers, accounts and terminals) is
 * written through at once (`fastupdate = off`), and what its pending list holds now is merged into it.
 *
 * With GIN's default fast update a write goes to the index's pending list, which every search then reads in full
 * until a vacuum merges it (or it reaches gin_pending_list_limit, 4 MB, and the write that fills it merges it). The
 * embedded database has no autovacuum, and PostgreSQL's comes after a fifth of a table has changed: a few thousand
 * pending entries made a search several times slower than once merged (bench/README.md, Measurements behind
 * the code: Lists). These tables are master data, written
 * by a person at the console and searched on every list call, so a write pays the index's cost at once. A GIN index
 * added later takes the same option (test/list-search-indexes.test.ts).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const { rows } = await sql<{ name: string }>`
    SELECT c.relname AS name
      FROM pg_index i
      JOIN pg_class c ON c.oid = i.indexrelid
      JOIN pg_am a ON a.oid = c.relam
      JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE a.amname = 'gin' AND n.nspname = current_schema()
     ORDER BY 1`.execute(db);
  for (const { name } of rows) {
    await sql`ALTER INDEX ${sql.id(name)} SET (fastupdate = off)`.execute(db);
    await sql`SELECT gin_clean_pending_list(to_regclass(${name}))`.execute(db);
  }
}
