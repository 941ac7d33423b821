import { type Kysely, sql } from 'kysely';

/**
 * Sort and search keys stored on the listed row (bench/README.md): an index of
 * one table cannot order the rows of a join, so sorting 100,000 vehicles by
 * their customer's name or company meant joining and sorting them all.
 *
 * - car_users.full_name: first_name || ' ' || name, generated (the customer
 *   list's name column; both parts are NOT NULL, so it equals concat()).
 * - car_users.company_name, accounts.company_name: the company's name.
 * - cars.user_name, user_merchant, user_payment_log: the customer's full name,
 *   merchant and payment delay (NULL without a customer); cars.company_name.
 * - devices.car_id: the live vehicle carrying the terminal (cars_device_key
 *   allows at most one), NULL when none.
 *
 * Triggers keep the copies, whatever writes (the API, the seed, a bulk load):
 * - BEFORE INSERT/UPDATE of the row's reference (or of the copy itself, so a
 *   direct write cannot set it) reads the source row FOR SHARE: a concurrent
 *   rename of that source waits for us, or we wait for it and read its new
 *   value (READ COMMITTED returns the newest version of a row it locks).
 * - AFTER UPDATE of a source copies the new value to the rows referencing it,
 *   in a statement of its own, which sees every referencing row committed so far.
 * - devices.car_id is recomputed under the terminal's row lock after any change
 *   of a vehicle's terminal, deletion flag or id, so two writers on the same
 *   terminal take turns and the later one counts the earlier one's vehicle.
 *
 * The migration locks the tables it fills, so no write falls between the
 * backfill and the triggers.
 */
const statements = [
  `LOCK TABLE companies, car_users, cars, devices, accounts IN SHARE ROW EXCLUSIVE MODE`,
  `ALTER TABLE car_users ADD COLUMN full_name text GENERATED ALWAYS AS (first_name || ' ' || name) STORED`,
  `ALTER TABLE car_users ADD COLUMN company_name text`,
  `ALTER TABLE accounts ADD COLUMN company_name text`,
  `ALTER TABLE cars ADD COLUMN user_name text, ADD COLUMN user_merchant text, ADD COLUMN user_payment_log smallint, ADD COLUMN company_name text`,
  `ALTER TABLE devices ADD COLUMN car_id text`,
  // backfill
  `UPDATE car_users u SET company_name = co.company_name FROM companies co WHERE co.company_id = u.company_id`,
  `UPDATE accounts a SET company_name = co.company_name FROM companies co WHERE co.company_id = a.company_id`,
  `UPDATE cars c SET user_name = u.full_name, user_merchant = u.merchant, user_payment_log = u.payment_log, company_name = co.company_name
     FROM cars c2
     LEFT JOIN car_users u ON u.user_id = c2.user_id
     LEFT JOIN companies co ON co.company_id = c2.company_id
    WHERE c2.car_id = c.car_id AND (c2.user_id IS NOT NULL OR c2.company_id IS NOT NULL)`,
  `UPDATE devices d SET car_id = c.car_id FROM cars c WHERE c.car_device_id = d.car_device_id AND NOT c.is_delete`,

  // the company's name on customers, accounts and vehicles
  `CREATE FUNCTION list_company_name(p_company_id text) RETURNS text LANGUAGE plpgsql VOLATILE AS $$
   DECLARE v text;
   BEGIN
     IF p_company_id IS NULL THEN RETURN NULL; END IF;
     SELECT company_name INTO v FROM companies WHERE company_id = p_company_id FOR SHARE;
     RETURN v;
   END $$`,
  `CREATE FUNCTION list_keys_company_row() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     -- The same company and no write of the copy: the copy stands (the company's rename trigger keeps it).
     IF TG_OP = 'UPDATE' AND NEW.company_id IS NOT DISTINCT FROM OLD.company_id
        AND NEW.company_name IS NOT DISTINCT FROM OLD.company_name THEN
       RETURN NEW;
     END IF;
     NEW.company_name := list_company_name(NEW.company_id);
     RETURN NEW;
   END $$`,
  `CREATE TRIGGER car_users_company_name BEFORE INSERT OR UPDATE OF company_id, company_name ON car_users
     FOR EACH ROW EXECUTE FUNCTION list_keys_company_row()`,
  `CREATE TRIGGER accounts_company_name BEFORE INSERT OR UPDATE OF company_id, company_name ON accounts
     FOR EACH ROW EXECUTE FUNCTION list_keys_company_row()`,

  // the customer's and the company's fields on the vehicle
  `CREATE FUNCTION list_keys_car_row() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     -- A copy is read again only when its reference changed or the statement wrote the copy
     -- (the rename triggers do): an unchanged reference keeps a copy its source's triggers keep,
     -- and no lock on the source is taken while this row is locked (no deadlock with a rename).
     IF TG_OP = 'INSERT' OR NEW.company_id IS DISTINCT FROM OLD.company_id
        OR NEW.company_name IS DISTINCT FROM OLD.company_name THEN
       NEW.company_name := list_company_name(NEW.company_id);
     END IF;
     IF TG_OP = 'INSERT' OR NEW.user_id IS DISTINCT FROM OLD.user_id
        OR NEW.user_name IS DISTINCT FROM OLD.user_name OR NEW.user_merchant IS DISTINCT FROM OLD.user_merchant
        OR NEW.user_payment_log IS DISTINCT FROM OLD.user_payment_log THEN
       NEW.user_name := NULL;
       NEW.user_merchant := NULL;
       NEW.user_payment_log := NULL;
       IF NEW.user_id IS NOT NULL THEN
         SELECT u.full_name, u.merchant, u.payment_log INTO NEW.user_name, NEW.user_merchant, NEW.user_payment_log
           FROM car_users u WHERE u.user_id = NEW.user_id FOR SHARE;
       END IF;
     END IF;
     RETURN NEW;
   END $$`,
  `CREATE TRIGGER cars_list_keys BEFORE INSERT OR UPDATE OF user_id, company_id, user_name, user_merchant, user_payment_log, company_name ON cars
     FOR EACH ROW EXECUTE FUNCTION list_keys_car_row()`,

  // a renamed company: its customers, accounts and vehicles
  `CREATE FUNCTION list_keys_company_renamed() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     UPDATE car_users SET company_name = NEW.company_name WHERE company_id = NEW.company_id;
     UPDATE accounts SET company_name = NEW.company_name WHERE company_id = NEW.company_id;
     UPDATE cars SET company_name = NEW.company_name WHERE company_id = NEW.company_id;
     RETURN NULL;
   END $$`,
  `CREATE TRIGGER companies_list_keys AFTER UPDATE OF company_name ON companies
     FOR EACH ROW WHEN (OLD.company_name IS DISTINCT FROM NEW.company_name) EXECUTE FUNCTION list_keys_company_renamed()`,

  // a renamed customer (or a new merchant or payment delay): their vehicles
  `CREATE FUNCTION list_keys_car_user_changed() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     UPDATE cars SET user_name = NEW.full_name, user_merchant = NEW.merchant, user_payment_log = NEW.payment_log
      WHERE user_id = NEW.user_id;
     RETURN NULL;
   END $$`,
  `CREATE TRIGGER car_users_list_keys AFTER UPDATE ON car_users FOR EACH ROW
     WHEN (OLD.full_name IS DISTINCT FROM NEW.full_name OR OLD.merchant IS DISTINCT FROM NEW.merchant
           OR OLD.payment_log IS DISTINCT FROM NEW.payment_log)
     EXECUTE FUNCTION list_keys_car_user_changed()`,

  // the terminal's live vehicle
  `CREATE FUNCTION list_keys_device_row() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     SELECT min(c.car_id) INTO NEW.car_id FROM cars c WHERE c.car_device_id = NEW.car_device_id AND NOT c.is_delete;
     RETURN NEW;
   END $$`,
  `CREATE TRIGGER devices_list_keys BEFORE INSERT OR UPDATE OF car_device_id, car_id ON devices
     FOR EACH ROW EXECUTE FUNCTION list_keys_device_row()`,
  `CREATE FUNCTION list_keys_car_device_changed() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     -- SET car_id = car_id: the BEFORE trigger above computes it, under the terminal's row lock.
     IF TG_OP <> 'INSERT' AND OLD.car_device_id IS NOT NULL THEN
       UPDATE devices SET car_id = car_id WHERE car_device_id = OLD.car_device_id;
     END IF;
     IF TG_OP <> 'DELETE' AND NEW.car_device_id IS NOT NULL
        AND (TG_OP = 'INSERT' OR NEW.car_device_id IS DISTINCT FROM OLD.car_device_id) THEN
       UPDATE devices SET car_id = car_id WHERE car_device_id = NEW.car_device_id;
     END IF;
     RETURN NULL;
   END $$`,
  `CREATE TRIGGER cars_device_car AFTER INSERT OR DELETE OR UPDATE OF car_id, car_device_id, is_delete ON cars
     FOR EACH ROW EXECUTE FUNCTION list_keys_car_device_changed()`,

  // sort indexes (col, pk), as in list_sort_indexes; a DESC one where few values repeat a lot
  `CREATE INDEX cars_user_name_sort_idx ON cars (user_name, car_id)`,
  `CREATE INDEX cars_merchant_sort_idx ON cars (user_merchant, car_id)`,
  `CREATE INDEX cars_payment_sort_idx ON cars (user_payment_log, car_id)`,
  `CREATE INDEX cars_payment_desc_sort_idx ON cars (user_payment_log DESC, car_id)`,
  `CREATE INDEX cars_company_name_sort_idx ON cars (company_name, car_id)`,
  `CREATE INDEX cars_company_name_desc_sort_idx ON cars (company_name DESC, car_id)`,
  `CREATE INDEX car_users_full_name_sort_idx ON car_users (full_name, user_id)`,
  `CREATE INDEX car_users_company_name_sort_idx ON car_users (company_name, user_id)`,
  `CREATE INDEX car_users_company_name_desc_sort_idx ON car_users (company_name DESC, user_id)`,
  `CREATE INDEX accounts_company_name_sort_idx ON accounts (company_name, account_id)`,
  `CREATE INDEX accounts_company_name_desc_sort_idx ON accounts (company_name DESC, account_id)`,
  `CREATE INDEX devices_car_sort_idx ON devices (car_id, car_device_id)`,
  // substring search of three or more characters on the stored names (pg_trgm: list_search_trigram)
  `CREATE INDEX cars_user_name_trgm_idx ON cars USING gin (user_name gin_trgm_ops)`,
  `CREATE INDEX cars_merchant_trgm_idx ON cars USING gin (user_merchant gin_trgm_ops)`,
  `CREATE INDEX car_users_full_name_trgm_idx ON car_users USING gin (full_name gin_trgm_ops)`,
  `CREATE INDEX car_users_company_name_trgm_idx ON car_users USING gin (company_name gin_trgm_ops)`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
