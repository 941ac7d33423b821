import { type Kysely, sql } from 'kysely';

/**
 * The gateway's terminal cache hears every change to a terminal, whoever makes it (docs/security.md §3): a trigger
 * sends the `fleet_terminals` signal (credentials/terminal-cache.ts) from the database itself, at commit,
 * so a terminal deleted, given a new password, IMEI or protocol by SQL outside the app is forgotten by
 * every instance at once instead of being let in for up to the cache's minute. The app still signals its
 * own changes after commit (this instance forgets before the NOTIFY comes back). Other columns (the
 * vehicle it is on, its addresses, its command texts) say nothing: the gateway does not read them.
 */
const statements = [
  `CREATE FUNCTION fleet_terminal_signal() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    IF TG_OP = 'TRUNCATE' THEN
      PERFORM pg_notify('fleet_terminals', '*');
    ELSIF TG_OP = 'DELETE' OR (OLD.car_device_id, OLD.car_data_id, OLD.password_hash, OLD.is_delete, OLD.protocol)
        IS DISTINCT FROM (NEW.car_device_id, NEW.car_data_id, NEW.password_hash, NEW.is_delete, NEW.protocol) THEN
      PERFORM pg_notify('fleet_terminals', 'd:' || OLD.car_device_id);
    END IF;
    RETURN NULL;
  END $$`,
  `CREATE TRIGGER devices_terminal_signal AFTER UPDATE OR DELETE ON devices
    FOR EACH ROW EXECUTE FUNCTION fleet_terminal_signal()`,
  `CREATE TRIGGER devices_terminal_truncate_signal AFTER TRUNCATE ON devices
    FOR EACH STATEMENT EXECUTE FUNCTION fleet_terminal_signal()`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
