import { type Kysely, sql } from 'kysely';

/**
 * Vehicle groups (拠点・部署, docs/groups.md):
 * - vehicle_groups: a company's groups, named uniquely within it;
 * - car_groups: which groups a vehicle belongs to (a vehicle may be in several);
 * - account_group_limits: an account limited to groups (a row: limited; no row: the whole company);
 *   a table of its own, so a limit never vanishes with its last group: limited to no group sees nothing;
 * - account_groups: the groups such an account sees.
 * A change to an account's limit or its groups tells the session cache (the 'fleet_sessions' signal of
 * fleet_session_signal, by account), as the session carries the limit (findSession).
 */
const statements = [
  `CREATE TABLE vehicle_groups (
    group_id    text PRIMARY KEY,
    company_id  text NOT NULL REFERENCES companies (company_id),
    name        text NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now(),
    updated_at  timestamptz NOT NULL DEFAULT now(),
    UNIQUE (company_id, name)
  )`,
  `CREATE TABLE car_groups (
    car_id    text NOT NULL REFERENCES cars (car_id) ON DELETE CASCADE,
    group_id  text NOT NULL REFERENCES vehicle_groups (group_id) ON DELETE CASCADE,
    PRIMARY KEY (car_id, group_id)
  )`,
  `CREATE INDEX car_groups_group_idx ON car_groups (group_id, car_id)`,
  `CREATE TABLE account_group_limits (
    account_id  text PRIMARY KEY REFERENCES accounts (account_id) ON DELETE CASCADE
  )`,
  `CREATE TABLE account_groups (
    account_id  text NOT NULL REFERENCES account_group_limits (account_id) ON DELETE CASCADE,
    group_id    text NOT NULL REFERENCES vehicle_groups (group_id) ON DELETE CASCADE,
    PRIMARY KEY (account_id, group_id)
  )`,
  `CREATE FUNCTION fleet_account_groups_signal() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    PERFORM pg_notify('fleet_sessions', 'a:' || CASE WHEN TG_OP = 'DELETE' THEN OLD.account_id ELSE NEW.account_id END);
    RETURN NULL;
  END $$`,
  `CREATE TRIGGER account_group_limits_session_signal AFTER INSERT OR DELETE ON account_group_limits
    FOR EACH ROW EXECUTE FUNCTION fleet_account_groups_signal()`,
  `CREATE TRIGGER account_groups_session_signal AFTER INSERT OR DELETE ON account_groups
    FOR EACH ROW EXECUTE FUNCTION fleet_account_groups_signal()`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
