import { type Kysely, sql } from 'kysely';

/**
 * Webhooks (docs/notifications.md "Webhooks"):
 * - webhooks: a receiver of a company (company_id NULL: the super admin's, for every company) with
 *   its URL, signing secret and the event types it wants;
 * - webhook_deliveries: the outbox of webhook calls, claimed and retried like mail_outbox; one row per
 *   receiver and event id (UNIQUE), so an event queued twice is delivered once;
 * - webhook_cursors: how far the webhook job has read logs of other modules (reserved_command_events).
 */
const statements = [
  `CREATE TABLE webhooks (
    id          integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    company_id  text REFERENCES companies (company_id),
    url         text NOT NULL,
    secret      text NOT NULL,
    events      jsonb NOT NULL DEFAULT '[]',
    enabled     boolean NOT NULL DEFAULT true,
    description text NOT NULL DEFAULT '',
    created_at  timestamptz NOT NULL DEFAULT now(),
    updated_at  timestamptz NOT NULL DEFAULT now()
  )`,
  `CREATE INDEX webhooks_company_idx ON webhooks (company_id)`,
  `CREATE TABLE webhook_deliveries (
    id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    webhook_id      integer NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
    event_id        text NOT NULL,
    event_type      text NOT NULL,
    body            text NOT NULL,
    attempts        integer NOT NULL DEFAULT 0,
    next_attempt_at timestamptz NOT NULL,
    last_status     integer,
    last_error      text,
    sent_at         timestamptz,
    created_at      timestamptz NOT NULL DEFAULT now(),
    UNIQUE (webhook_id, event_id)
  )`,
  `CREATE INDEX webhook_deliveries_due_idx ON webhook_deliveries (next_attempt_at) WHERE sent_at IS NULL`,
  `CREATE INDEX webhook_deliveries_list_idx ON webhook_deliveries (webhook_id, id)`,
  `CREATE TABLE webhook_cursors (
    name     text PRIMARY KEY,
    last_id  bigint NOT NULL
  )`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
