import { type Kysely, sql } from 'kysely';

/**
 * The gateways check a terminal's allowed sources (`ipaddr`) on every request from the terminal cache
 * (credentials/terminal-cache.ts), so a change to them by SQL outside the app must reach the cache like a
 * new password does: the database's own signal (migration 2026_12_11_090000_terminal_change_signals)
 * now names `ipaddr` among the columns it watches.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE OR REPLACE FUNCTION fleet_terminal_signal() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    IF TG_OP = 'TRUNCATE' THEN
      PERFORM pg_notify('fleet_terminals', '*');
    ELSIF TG_OP = 'DELETE'
        OR (OLD.car_device_id, OLD.car_data_id, OLD.password_hash, OLD.is_delete, OLD.protocol, OLD.ipaddr)
        IS DISTINCT FROM (NEW.car_device_id, NEW.car_data_id, NEW.password_hash, NEW.is_delete, NEW.protocol, NEW.ipaddr) THEN
      PERFORM pg_notify('fleet_terminals', 'd:' || OLD.car_device_id);
    END IF;
    RETURN NULL;
  END $$`.execute(db);
}
