import {
  notifyHistorySearchColumns,
  notifyHistorySortColumns,
  type NotifyHistoryChannel,
  type FromDb,
  type NotifyHistoryRow,
  type NotifyHistoryStatus,
  type NotifyKey,
} from '@fleet/contract';
import { sql } from 'kysely';
import type { Db } from '../db/database.js';
import {
  applyListFilter,
  applyListPage,
  countRows,
  type ListConfig,
  type ListFilterInput,
  type PagingInput,
} from '../http/list-query.js';
import { MAIL_MAX_ATTEMPTS } from '../mail/mail-policy.js';
import { PUSH_MAX_ATTEMPTS } from '../push/push-policy.js';
import { WEBHOOK_MAX_ATTEMPTS } from '../webhooks/webhook-policy.js';

/**
 * The notification history (docs/notifications.md "Notification history"): what each notification
 * became, one row per mail, push message and notification webhook call, read from the outboxes of
 * mail/, push/ and webhooks/ (never written here). A row's company is its recipient's: the account's
 * for mail and push, the receiver's for a webhook (null: the super admin's).
 */
interface HistorySource {
  key: string;
  channel: NotifyHistoryChannel;
  item: string;
  car_id: string;
  car_number: string;
  car_deleted: boolean;
  company_id: string | null;
  recipient: string;
  status: NotifyHistoryStatus;
  attempts: number;
  last_error: string | null;
  queued_at: Date | string;
  sent_at: Date | string | null;
}

const statusOf = (sent: string, failed: string) =>
  sql.raw(`CASE WHEN ${sent} IS NOT NULL THEN 'sent' WHEN ${failed} THEN 'failed' ELSE 'pending' END`);

const mailPart = sql`SELECT 'mail:' || o.id AS key, 'mail' AS channel, e.item, e.car_id, c.car_number,
    c.is_delete AS car_deleted, a.company_id, o.to_addr AS recipient,
    ${statusOf('o.sent_at', `o.attempts >= ${MAIL_MAX_ATTEMPTS}`)} AS status, o.attempts, o.last_error,
    o.created_at AS queued_at, o.sent_at
  FROM notification_events e
  JOIN mail_outbox o ON o.id = e.outbox_id
  JOIN cars c ON c.car_id = e.car_id
  JOIN accounts a ON a.account_id = e.account_id`;

const pushPart = sql`SELECT 'push:' || d.id AS key, 'push' AS channel, d.item, d.car_id, c.car_number,
    c.is_delete AS car_deleted, a.company_id,
    a.name || '（' || coalesce(substring(d.endpoint from '^https?://([^/]+)'), d.endpoint) || '）' AS recipient,
    ${statusOf('d.sent_at', `(d.gave_up OR d.attempts >= ${PUSH_MAX_ATTEMPTS})`)} AS status, d.attempts, d.last_error,
    d.created_at AS queued_at, d.sent_at
  FROM push_deliveries d
  JOIN cars c ON c.car_id = d.car_id
  JOIN accounts a ON a.account_id = d.account_id`;

const webhookPart = sql`SELECT 'webhook:' || wd.id AS key, 'webhook' AS channel, substr(wd.event_type, 8) AS item,
    c.car_id, c.car_number, c.is_delete AS car_deleted, w.company_id, w.url AS recipient,
    ${statusOf('wd.sent_at', `wd.attempts >= ${WEBHOOK_MAX_ATTEMPTS}`)} AS status, wd.attempts, wd.last_error,
    wd.created_at AS queued_at, wd.sent_at
  FROM webhook_deliveries wd
  JOIN webhooks w ON w.id = wd.webhook_id
  JOIN cars c ON c.car_id = (wd.body::jsonb -> 'data' ->> 'car_id')
  WHERE wd.event_type LIKE 'notify.%'`;

/** Webhook rows only for administrators, who manage the receivers. */
const source = (withWebhooks: boolean) =>
  sql<HistorySource>`(${sql.join(withWebhooks ? [mailPart, pushPart, webhookPart] : [mailPart, pushPart], sql` UNION ALL `)})`.as(
    'h',
  );

type Column = (typeof notifyHistorySortColumns)[number] | 'key';
export const notifyHistoryListConfig: ListConfig<Column> = {
  columns: {
    key: { expr: sql.ref('h.key') },
    queued_at: { expr: sql.ref('h.queued_at') },
    channel: { expr: sql.ref('h.channel') },
    item: { expr: sql.ref('h.item') },
    car_id: { expr: sql.ref('h.car_id') },
    car_number: { expr: sql.ref('h.car_number') },
    recipient: { expr: sql.ref('h.recipient') },
  },
  search: notifyHistorySearchColumns,
  sortable: notifyHistorySortColumns,
  primaryKey: 'key',
  /** "Deleted" rows are those about a deleted vehicle. */
  deleted: sql.ref('h.car_deleted'),
  company: sql.ref('h.company_id'),
};

export interface HistoryScope {
  /** The caller's company; null for the super admin. */
  company: string | null;
  withWebhooks: boolean;
}

const filtered = (db: Db, scope: HistoryScope, filter: ListFilterInput) =>
  applyListFilter(db.selectFrom(source(scope.withWebhooks)), notifyHistoryListConfig, filter, scope.company);

export const countHistory = (db: Db, scope: HistoryScope, filter: ListFilterInput) =>
  countRows(filtered(db, scope, filter));

export async function listHistory(
  db: Db,
  scope: HistoryScope,
  query: ListFilterInput & PagingInput,
): Promise<FromDb<typeof NotifyHistoryRow>[]> {
  const rows = await applyListPage(filtered(db, scope, query).selectAll('h'), notifyHistoryListConfig, query).execute();
  return rows.map((r) => ({
    key: r.key,
    channel: r.channel,
    item: r.item as NotifyKey,
    car_id: r.car_id,
    car_number: r.car_number,
    company_id: r.company_id,
    recipient: r.recipient,
    status: r.status,
    attempts: Number(r.attempts),
    last_error: r.last_error,
    queued_at: r.queued_at,
    sent_at: r.sent_at,
  }));
}
