import { type Kysely, sql } from 'kysely';

/**
 * Notification settings per vehicle group and the alert signal (docs/notifications.md "Group settings",
 * docs/zones.md "Alerts"):
 * - group_notify_settings: a group's items (enable, param) and channels, as notification_settings has
 *   them for an account, plus the zone crossings;
 * - group_notify_recipients: the company's accounts the group's settings tell;
 * - fleet_alert_signal: every new, acknowledged or deleted alert NOTIFYs 'fleet_alerts' with its company
 *   (empty for none) at commit, so the header's count reaches every instance's streams whoever wrote
 *   the row (the ingest, the sweep, an acknowledgement on another instance). PostgreSQL folds the
 *   same payload within one transaction into one signal.
 */
const statements = [
  `CREATE TABLE group_notify_settings (
    group_id    text PRIMARY KEY REFERENCES vehicle_groups (group_id) ON DELETE CASCADE,
    items       jsonb NOT NULL DEFAULT '{}',
    channels    jsonb NOT NULL DEFAULT '{}',
    updated_at  timestamptz NOT NULL DEFAULT now()
  )`,
  `CREATE TABLE group_notify_recipients (
    group_id    text NOT NULL REFERENCES group_notify_settings (group_id) ON DELETE CASCADE,
    account_id  text NOT NULL REFERENCES accounts (account_id) ON DELETE CASCADE,
    PRIMARY KEY (group_id, account_id)
  )`,
  `CREATE INDEX group_notify_recipients_account_idx ON group_notify_recipients (account_id)`,
  `CREATE FUNCTION fleet_alert_signal() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    PERFORM pg_notify('fleet_alerts', coalesce(CASE WHEN TG_OP = 'DELETE' THEN OLD.company_id ELSE NEW.company_id END, ''));
    RETURN NULL;
  END $$`,
  `CREATE TRIGGER alerts_signal AFTER INSERT OR DELETE OR UPDATE OF acked_at ON alerts
    FOR EACH ROW EXECUTE FUNCTION fleet_alert_signal()`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
