import type { FromDb, MailOutboxRow, MailOutboxStatus } from '@fleet/contract';
import { sql, type ExpressionBuilder } from 'kysely';
import type { Db } from '../db/database.js';
import type { DB } from '../db/schema.js';
import { defineOutbox, inClaimOrder } from '../outbox/index.js';
import { MAIL_CLAIM_LEASE_MS, MAIL_MAX_ATTEMPTS } from './mail-policy.js';

export type MailKind = 'notification' | 'password_reset' | 'password_changed' | 'report';

export interface NewMail {
  to: string;
  subject: string;
  body: string;
  kind: MailKind;
  /** Files sent with the mail (a report's workbook), kept in mail_attachments until it is sent. */
  attachments?: MailAttachment[];
}

export interface MailAttachment {
  filename: string;
  contentType: string;
  content: Buffer;
}

/** Kinds whose body holds a secret (a reset link): blanked once sent. */
const SECRET_KINDS: readonly string[] = ['password_reset'];
export const REDACTED_BODY = '（パスワード再設定用のリンクを含むため、送信後に本文を削除しました）';

/** Queues one mail; call inside the transaction of whatever causes it. */
export async function enqueueMail(db: Db, mail: NewMail, now: Date): Promise<number> {
  const row = await db
    .insertInto('mail_outbox')
    .values({
      to_addr: mail.to,
      subject: mail.subject,
      body: mail.body,
      kind: mail.kind,
      next_attempt_at: now,
      created_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  if (mail.attachments?.length)
    await db
      .insertInto('mail_attachments')
      .values(
        mail.attachments.map((a) => ({
          mail_id: Number(row.id),
          filename: a.filename,
          content_type: a.contentType,
          content: a.content,
        })),
      )
      .execute();
  return Number(row.id);
}

export interface ClaimedMail {
  id: number;
  to_addr: string;
  subject: string;
  body: string;
  kind: string;
  attempts: number;
  attachments: MailAttachment[];
}

/** mail_outbox's claim rules (outbox/claim.ts). */
export const mailOutbox = defineOutbox('mail_outbox', {
  maxAttempts: MAIL_MAX_ATTEMPTS,
  leaseMs: MAIL_CLAIM_LEASE_MS,
});

/** Claims due mails for this instance (mailOutbox.claim) and reads them. Run inside a transaction. */
export async function claimDueMails(trx: Db, now: Date, limit: number): Promise<ClaimedMail[]> {
  const ids = await mailOutbox.claim(trx, now, limit);
  if (!ids.length) return [];
  const rows = await trx
    .selectFrom('mail_outbox')
    .select(['id', 'to_addr', 'subject', 'body', 'kind', 'attempts'])
    .where('id', 'in', ids)
    .execute();
  const files = await trx
    .selectFrom('mail_attachments')
    .select(['mail_id', 'filename', 'content_type', 'content'])
    .where('mail_id', 'in', ids)
    .orderBy('id')
    .execute();
  const withFiles = rows.map((r) => ({
    ...r,
    attachments: files
      .filter((f) => Number(f.mail_id) === Number(r.id))
      .map((f) => ({ filename: f.filename, contentType: f.content_type, content: Buffer.from(f.content) })),
  }));
  return inClaimOrder(ids, withFiles);
}

export async function markSent(db: Db, mail: ClaimedMail, now: Date): Promise<void> {
  await db
    .updateTable('mail_outbox')
    .set({ sent_at: now, last_error: null, ...(SECRET_KINDS.includes(mail.kind) ? { body: REDACTED_BODY } : {}) })
    .where('id', '=', mail.id)
    .execute();
  // A sent mail is never sent again: its files would only take room for the 30 days it is kept.
  if (mail.attachments.length) await db.deleteFrom('mail_attachments').where('mail_id', '=', mail.id).execute();
}

/** Unsent mails after `afterId`, oldest first: what the dispatcher logs when there is no SMTP. */
export async function pendingAfter(db: Db, afterId: number, limit: number) {
  const rows = await db
    .selectFrom('mail_outbox')
    .select(['id', 'to_addr', 'subject', 'body', 'kind'])
    .where('sent_at', 'is', null)
    .where('id', '>', afterId)
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows.map((r) => ({ ...r, id: Number(r.id) }));
}

const statusFilter = (status: MailOutboxStatus) => (eb: ExpressionBuilder<DB, 'mail_outbox'>) => {
  switch (status) {
    case 'sent':
      return eb('sent_at', 'is not', null);
    case 'pending':
      return eb.and([eb('sent_at', 'is', null), eb('attempts', '<', MAIL_MAX_ATTEMPTS)]);
    case 'failed':
      return eb.and([eb('sent_at', 'is', null), eb('attempts', '>=', MAIL_MAX_ATTEMPTS)]);
    default:
      return eb.val(true);
  }
};

/** The outbox screen: newest first, without bodies (they may hold reset links). */
export async function listOutbox(db: Db, q: { status: MailOutboxStatus; offset: number; limit: number }) {
  const where = statusFilter(q.status);
  const [count, rows] = await Promise.all([
    db
      .selectFrom('mail_outbox')
      .select(sql<number>`count(*)::int`.as('n'))
      .where(where)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('mail_outbox')
      .select([
        'id',
        'to_addr',
        'subject',
        'kind',
        'attempts',
        'next_attempt_at',
        'last_error',
        'sent_at',
        'created_at',
      ])
      .where(where)
      .orderBy('id', 'desc')
      .offset(q.offset)
      .limit(q.limit)
      .execute(),
  ]);
  const list: FromDb<typeof MailOutboxRow>[] = rows.map((r) => ({
    id: Number(r.id),
    to_addr: r.to_addr,
    subject: r.subject,
    kind: r.kind,
    status: mailOutbox.status(r),
    attempts: r.attempts,
    next_attempt_at: r.next_attempt_at,
    last_error: r.last_error,
    sent_at: r.sent_at,
    created_at: r.created_at,
  }));
  return { count: count.n, list };
}

/** Sent mails are kept 30 days for the outbox screen, then dropped. */
export async function pruneSentMails(db: Db, now: Date): Promise<void> {
  await db
    .deleteFrom('mail_outbox')
    .where('sent_at', 'is not', null)
    .where('sent_at', '<', new Date(now.getTime() - 30 * 86_400_000))
    .execute();
}
