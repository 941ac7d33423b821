import { type Kysely, sql } from 'kysely';

/**
 * The alerts' signal (migration group_notify_alert_signals) once per statement instead of once per row: a
 * busy fleet's zone crossings insert thousands of alerts in one statement of the ingest, and every
 * instance needs one `fleet_alerts` notification per company touched, not one per alert. Three triggers,
 * one per event (a trigger with transition tables takes one event and no column list); an update of any
 * column signals, which for alerts is their acknowledgement.
 */
const statements = [
  `DROP TRIGGER alerts_signal ON alerts`,
  `DROP FUNCTION fleet_alert_signal()`,
  `CREATE FUNCTION fleet_alerts_signal() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    PERFORM pg_notify('fleet_alerts', c.company) FROM (SELECT DISTINCT coalesce(company_id, '') AS company FROM changed) AS c;
    RETURN NULL;
  END $$`,
  `CREATE TRIGGER alerts_signal_insert AFTER INSERT ON alerts
    REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION fleet_alerts_signal()`,
  `CREATE TRIGGER alerts_signal_update AFTER UPDATE ON alerts
    REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION fleet_alerts_signal()`,
  `CREATE TRIGGER alerts_signal_delete AFTER DELETE ON alerts
    REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION fleet_alerts_signal()`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
