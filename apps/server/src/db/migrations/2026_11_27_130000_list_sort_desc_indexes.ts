import { type Kysely, sql } from 'kysely';

/**
 * Descending sorts by a name or merchant: the lists break ties by the primary
 * key ascending, so a backward scan of (col, pk) reads a whole group of equal
 * values and re-sorts it (bench fleet: ~110 vehicles per customer name, ~650
 * per merchant, each a heap visit). An index per direction hands the first page
 * over in order, as list_sort_indexes does for the few-valued columns.
 */
const statements = [
  `CREATE INDEX cars_user_name_desc_sort_idx ON cars (user_name DESC, car_id)`,
  `CREATE INDEX cars_merchant_desc_sort_idx ON cars (user_merchant DESC, car_id)`,
  `CREATE INDEX car_users_full_name_desc_sort_idx ON car_users (full_name DESC, user_id)`,
  `CREATE INDEX car_users_merchant_desc_sort_idx ON car_users (merchant DESC, user_id)`,
  `CREATE INDEX accounts_name_desc_sort_idx ON accounts (name DESC, account_id)`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
