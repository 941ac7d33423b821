import { type Kysely, sql } from 'kysely';

/**
 * Deep pages (bench/README.md): a list pages its ids first and joins the 20
 * rows after (deferred join), so an OFFSET of 90,000 only skips index entries.
 * The default list (live rows, by primary key) skips them in these partial
 * indexes with an index-only scan: no heap visit for is_delete.
 */
const statements = [
  `CREATE INDEX cars_live_id_idx ON cars (car_id) WHERE NOT is_delete`,
  `CREATE INDEX car_users_live_id_idx ON car_users (user_id) WHERE NOT is_delete`,
  `CREATE INDEX devices_live_id_idx ON devices (car_device_id) WHERE NOT is_delete`,
  `CREATE INDEX accounts_live_id_idx ON accounts (account_id) WHERE NOT is_delete`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
