import { type Kysely, sql } from 'kysely';

/**
 * Notifications and password reset (docs/notifications.md):
 * - vehicle_motion: per terminal, when it last moved and since when it has
 *   been standing with the engine on, so the minute sweep never scans logs;
 * - password_reset_requests: the request rate limit, shared by every instance;
 * - indexes for the outbox screen, the sweep's "already told" check and the
 *   reset tokens of an account.
 */
const statements = [
  `CREATE TABLE vehicle_motion (
    car_data_id     text PRIMARY KEY,
    moved_at        timestamptz NOT NULL,
    anchor_lat      double precision,
    anchor_lng      double precision,
    engine_running  text,
    idle_since      timestamptz,
    last_record_at  timestamptz NOT NULL
  )`,
  `CREATE TABLE password_reset_requests (
    id     bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    email  text NOT NULL,
    ip     text NOT NULL,
    at     timestamptz NOT NULL DEFAULT now()
  )`,
  `CREATE INDEX password_reset_requests_email_idx ON password_reset_requests (email, at)`,
  `CREATE INDEX password_reset_requests_ip_idx ON password_reset_requests (ip, at)`,
  `CREATE INDEX password_reset_tokens_account_idx ON password_reset_tokens (account_id)`,
  `CREATE INDEX notification_events_item_idx ON notification_events (item, car_id, account_id, at)`,
  `CREATE INDEX mail_outbox_sent_idx ON mail_outbox (sent_at) WHERE sent_at IS NOT NULL`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
