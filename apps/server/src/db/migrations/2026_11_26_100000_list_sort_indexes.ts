import { type Kysely, sql } from 'kysely';

/**
 * Sorting a list of 100,000 rows by a column of its own table reads the
 * first page from an index instead of sorting every row (bench/README.md).
 * The list helper always breaks ties by the primary key ascending, so:
 * - a column with many distinct values gets one index (col, pk); for
 *   "col desc" the planner scans it backwards and re-sorts the few equal
 *   values by pk (incremental sort);
 * - a column with few values (status, role, type) gets one index per
 *   direction, since a backward scan would re-sort tens of thousands of
 *   equal values.
 * Sorts by a joined column (company name, customer name on the vehicle list)
 * and the devices' vehicle id (a subquery) are not served by these.
 */
const statements = [
  // vehicles
  `CREATE INDEX cars_number_sort_idx ON cars (car_number, car_id)`,
  `CREATE INDEX cars_type_sort_idx ON cars (car_type, car_id)`,
  `CREATE INDEX cars_type_desc_sort_idx ON cars (car_type DESC, car_id)`,
  `CREATE INDEX cars_status_sort_idx ON cars (car_status, car_id)`,
  `CREATE INDEX cars_status_desc_sort_idx ON cars (car_status DESC, car_id)`,
  // customers
  `CREATE INDEX car_users_merchant_sort_idx ON car_users (merchant, user_id)`,
  `CREATE INDEX car_users_payment_sort_idx ON car_users (payment_log, user_id)`,
  `CREATE INDEX car_users_payment_desc_sort_idx ON car_users (payment_log DESC, user_id)`,
  `CREATE INDEX car_users_state_sort_idx ON car_users (state, user_id)`,
  `CREATE INDEX car_users_state_desc_sort_idx ON car_users (state DESC, user_id)`,
  // terminals (car_data_id is served by devices_imei_key)
  `CREATE INDEX devices_ipaddr_sort_idx ON devices (ipaddr, car_device_id)`,
  `CREATE INDEX devices_macaddr_sort_idx ON devices (macaddr, car_device_id)`,
  `CREATE INDEX devices_type_sort_idx ON devices (car_type, car_device_id)`,
  `CREATE INDEX devices_type_desc_sort_idx ON devices (car_type DESC, car_device_id)`,
  // accounts
  `CREATE INDEX accounts_name_sort_idx ON accounts (name, account_id)`,
  `CREATE INDEX accounts_email_sort_idx ON accounts (email, account_id)`,
  `CREATE INDEX accounts_role_sort_idx ON accounts (role, account_id)`,
  `CREATE INDEX accounts_role_desc_sort_idx ON accounts (role DESC, account_id)`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
