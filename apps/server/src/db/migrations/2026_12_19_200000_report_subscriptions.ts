import { type Kysely, sql } from 'kysely';

/**
 * Scheduled fleet reports by mail (docs/trips.md "Scheduled reports"):
 * - mail_attachments: files sent with a queued mail (the report's workbook), dropped with their mail and
 *   emptied once it was sent (the outbox screen never shows them; a sent mail is not sent again);
 * - report_subscriptions: an account's daily and monthly summary by mail; `*_sent_for` is the last
 *   period queued ('YYYY-MM-DD', a JST day; 'YYYY-MM', a JST month), so each period is queued once
 *   however many instances run the job.
 */
const statements = [
  `CREATE TABLE mail_attachments (
    id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    mail_id      bigint NOT NULL REFERENCES mail_outbox (id) ON DELETE CASCADE,
    filename     text NOT NULL,
    content_type text NOT NULL,
    content      bytea NOT NULL
  )`,
  `CREATE INDEX mail_attachments_mail_idx ON mail_attachments (mail_id)`,
  `CREATE TABLE report_subscriptions (
    account_id        text PRIMARY KEY REFERENCES accounts (account_id) ON DELETE CASCADE,
    daily             boolean NOT NULL DEFAULT false,
    monthly           boolean NOT NULL DEFAULT false,
    company_id        text REFERENCES companies (company_id),
    daily_sent_for    text,
    monthly_sent_for  text,
    created_at        timestamptz NOT NULL DEFAULT now(),
    updated_at        timestamptz NOT NULL DEFAULT now()
  )`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
