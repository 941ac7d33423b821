import { sql, type Kysely } from 'kysely';

/**
 * The four big lists' tables (vehicles, customers, accounts, terminals) are vacuumed once a hundredth of their
 * rows has changed, where autovacuum's default waits for a fifth. Every list call counts their live rows with an
 * index-only scan, which also reads the table for each row on a page a write has touched, until a vacuum marks
 * the page all-visible again. A few thousand saves leave dead rows far below the fifth autovacuum waits for by
 * default, and the count then reads the table for thousands of rows besides its index, a cost every list call
 * pays until a vacuum comes. A vacuum of such a table is short and runs in the background (bench/README.md,
 * Measurements behind the code: Lists). The embedded database, which has no autovacuum, keeps its own job's thresholds
 * (db/statistics.ts).
 */
const tables = ['cars', 'car_users', 'accounts', 'devices'];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const table of tables)
    await sql`ALTER TABLE ${sql.table(table)} SET (autovacuum_vacuum_scale_factor = 0.01, autovacuum_vacuum_insert_scale_factor = 0.01)`.execute(
      db,
    );
}
