import { sql, type Kysely } from 'kysely';

/**
 * The four big lists' tables (vehicles, customers, accounts, terminals) are vacuumed once a hundredth of their
 * rows has changed, where autovacuum's default waits for a fifth. Every list call counts their live rows with an
 * index-only scan, which also reads the table for each row on a page a write has touched, until a vacuum marks
 * the page all-visible again. After three bench runs had saved 1,000 terminals twice each, the terminals' table
 * held 6,000 dead rows of 100,000, under the 20,050 autovacuum waits for by default: the count fetched 4,065 rows
 * from the table besides its index, 7.35-7.47 ms (p50 of 100, psql); vacuumed, 6.32-6.52 ms and none (issue
 * #19). A vacuum of such a table runs in the background: 89-229 ms for the terminals after 2,000-6,000 saves
 * (their 13 indexes included). The embedded database, which has no autovacuum, keeps its own job's thresholds
 * (db/statistics.ts).
 */
const tables = ['cars', 'car_users', 'accounts', 'devices'];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const table of tables)
    await sql`ALTER TABLE ${sql.table(table)} SET (autovacuum_vacuum_scale_factor = 0.01, autovacuum_vacuum_insert_scale_factor = 0.01)`.execute(
      db,
    );
}
