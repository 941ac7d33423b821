import { type Kysely, sql } from 'kysely';

/**
 * Browser push (docs/notifications.md "Browser push"):
 * - push_vapid_keys: the server's VAPID key pair when none is configured; one row, made once, so every
 *   instance and restart signs with the same pair (a browser's subscription is bound to the public key);
 * - push_subscriptions: an account's browser subscription (endpoint, its ECDH public key and auth secret);
 * - push_deliveries: the outbox of push messages, claimed and retried like mail_outbox; one row per
 *   subscription and event id (UNIQUE). The row keeps the endpoint and account so the history outlives a
 *   subscription the push service has removed;
 * - notification_settings.channels: per item, whether it goes by mail and/or push; absent items (every
 *   settings row saved before this) mean mail only.
 */
const statements = [
  `CREATE TABLE push_vapid_keys (
    id          boolean PRIMARY KEY DEFAULT true CHECK (id),
    public_key  text NOT NULL,
    private_key text NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now()
  )`,
  `CREATE TABLE push_subscriptions (
    id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    account_id  text NOT NULL REFERENCES accounts (account_id),
    endpoint    text NOT NULL UNIQUE,
    p256dh      text NOT NULL,
    auth        text NOT NULL,
    user_agent  text NOT NULL DEFAULT '',
    created_at  timestamptz NOT NULL DEFAULT now()
  )`,
  `CREATE INDEX push_subscriptions_account_idx ON push_subscriptions (account_id)`,
  `CREATE TABLE push_deliveries (
    id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    subscription_id bigint REFERENCES push_subscriptions (id) ON DELETE SET NULL,
    account_id      text NOT NULL,
    endpoint        text NOT NULL,
    event_id        text NOT NULL,
    item            text NOT NULL,
    car_id          text NOT NULL,
    company_id      text,
    payload         text NOT NULL,
    attempts        integer NOT NULL DEFAULT 0,
    next_attempt_at timestamptz NOT NULL,
    last_status     integer,
    last_error      text,
    sent_at         timestamptz,
    gave_up         boolean NOT NULL DEFAULT false,
    created_at      timestamptz NOT NULL DEFAULT now(),
    UNIQUE (subscription_id, event_id)
  )`,
  `CREATE INDEX push_deliveries_due_idx ON push_deliveries (next_attempt_at) WHERE sent_at IS NULL AND NOT gave_up`,
  `CREATE INDEX push_deliveries_company_idx ON push_deliveries (company_id, id)`,
  `ALTER TABLE notification_settings ADD COLUMN channels jsonb NOT NULL DEFAULT '{}'`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
