import { type Kysely, sql } from 'kysely';

/**
 * The lists' search is a substring match (ILIKE '%text%'), which a btree
 * cannot serve: on 100,000 rows every search read the whole table. Trigram
 * GIN indexes find the rows of a search of three or more characters
 * (bench/README.md); shorter ones (a two-kanji surname) still scan. pg_trgm
 * is a trusted extension: the owner of the database may create it; PGlite
 * loads it in openDatabase. Computed search columns (the customer's full
 * name, the vehicle list's customer name) are not indexed.
 */
const statements = [
  `CREATE EXTENSION IF NOT EXISTS pg_trgm`,
  `CREATE INDEX cars_id_trgm_idx ON cars USING gin (car_id gin_trgm_ops)`,
  `CREATE INDEX cars_number_trgm_idx ON cars USING gin (car_number gin_trgm_ops)`,
  `CREATE INDEX car_users_id_trgm_idx ON car_users USING gin (user_id gin_trgm_ops)`,
  `CREATE INDEX car_users_merchant_trgm_idx ON car_users USING gin (merchant gin_trgm_ops)`,
  `CREATE INDEX devices_id_trgm_idx ON devices USING gin (car_device_id gin_trgm_ops)`,
  `CREATE INDEX devices_ipaddr_trgm_idx ON devices USING gin (ipaddr gin_trgm_ops)`,
  `CREATE INDEX devices_macaddr_trgm_idx ON devices USING gin (macaddr gin_trgm_ops)`,
  `CREATE INDEX devices_imei_trgm_idx ON devices USING gin (car_data_id gin_trgm_ops)`,
  `CREATE INDEX accounts_id_trgm_idx ON accounts USING gin (account_id gin_trgm_ops)`,
  `CREATE INDEX accounts_name_trgm_idx ON accounts USING gin (name gin_trgm_ops)`,
  `CREATE INDEX accounts_email_trgm_idx ON accounts USING gin (email gin_trgm_ops)`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
