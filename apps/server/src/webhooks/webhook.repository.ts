import type {
  FromDb,
  Webhook,
  WebhookDeliveryRow,
  WebhookDeliveryStatus,
  WebhookEventBody,
  WebhookEventType,
} from '@fleet/contract';
import { sql, type ExpressionBuilder } from 'kysely';
import type { Db } from '../db/database.js';
import type { DB } from '../db/schema.js';
import { defineOutbox, inClaimOrder } from '../outbox/index.js';
import { WEBHOOK_CLAIM_LEASE_MS, WEBHOOK_MAX_ATTEMPTS } from './webhook-policy.js';

/**
 * webhooks/ owns webhooks, webhook_deliveries and webhook_cursors. Other modules queue events with
 * enqueueWebhookEvent inside the transaction that causes them; the dispatcher job sends them.
 * `company` is the caller's scope: a company admin's id, or null for the super admin (every row).
 */

const json = (v: unknown): unknown => (typeof v === 'string' ? JSON.parse(v) : v);

type WebhookRow = {
  id: number;
  company_id: string | null;
  url: string;
  secret: string;
  events: unknown;
  enabled: boolean;
  description: string;
  created_at: Date | string;
  updated_at: Date | string;
};

const toWebhook = (r: WebhookRow): FromDb<typeof Webhook> => ({
  id: Number(r.id),
  company_id: r.company_id,
  url: r.url,
  events: json(r.events) as WebhookEventType[],
  enabled: r.enabled,
  description: r.description,
  secret_hint: r.secret.slice(-4),
  created_at: r.created_at,
  updated_at: r.updated_at,
});

const scoped = (company: string | null) => (eb: ExpressionBuilder<DB, 'webhooks'>) =>
  company === null ? eb.val(true) : eb('webhooks.company_id', '=', company);

export async function listWebhooks(db: Db, company: string | null) {
  const rows = await db.selectFrom('webhooks').selectAll().where(scoped(company)).orderBy('id').execute();
  return { count: rows.length, list: rows.map(toWebhook) };
}

export interface WebhookInput {
  url: string;
  secret: string;
  events: string[];
  enabled: boolean;
  description: string;
}

export async function insertWebhook(
  db: Db,
  company: string | null,
  w: WebhookInput,
  now: Date,
): Promise<FromDb<typeof Webhook>> {
  const row = await db
    .insertInto('webhooks')
    .values({ company_id: company, ...w, events: JSON.stringify(w.events), created_at: now, updated_at: now })
    .returningAll()
    .executeTakeFirstOrThrow();
  return toWebhook(row);
}

/** Updates a webhook in the caller's scope; a blank secret keeps the old one. Returns whether it was found. */
export async function updateWebhook(
  db: Db,
  company: string | null,
  id: number,
  w: WebhookInput,
  now: Date,
): Promise<boolean> {
  const { secret, ...rest } = w;
  const result = await db
    .updateTable('webhooks')
    .set({ ...rest, ...(secret ? { secret } : {}), events: JSON.stringify(w.events), updated_at: now })
    .where('id', '=', id)
    .where(scoped(company))
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Deletes a webhook in the caller's scope with its delivery log. Returns whether it was found. */
export async function deleteWebhook(db: Db, company: string | null, id: number): Promise<boolean> {
  const result = await db.deleteFrom('webhooks').where('id', '=', id).where(scoped(company)).executeTakeFirst();
  return result.numDeletedRows > 0n;
}

export interface WebhookEvent {
  /** Stable per event: queued twice, it is delivered once per receiver. */
  id: string;
  type: WebhookEventType;
  /** The company the event is about (its vehicle's); null: only the super admin's receivers hear it. */
  company_id: string | null;
  at: Date;
  data: Record<string, unknown>;
}

/**
 * Queues one event for every enabled receiver that wants its type and may see its company, once per
 * receiver and event id. One statement; call it in the transaction of whatever causes the event.
 */
export async function enqueueWebhookEvent(db: Db, e: WebhookEvent, now: Date): Promise<number> {
  return enqueueWebhookEvents(db, [e], now);
}

/** enqueueWebhookEvent for many events in one statement (the events of one ingest group). */
export async function enqueueWebhookEvents(db: Db, events: readonly WebhookEvent[], now: Date): Promise<number> {
  if (events.length === 0) return 0;
  const bodies = events.map((e): WebhookEventBody => ({
    id: e.id,
    type: e.type,
    created_at: e.at.toISOString(),
    company_id: e.company_id,
    data: e.data,
  }));
  const result = await sql`
    INSERT INTO webhook_deliveries (webhook_id, event_id, event_type, body, next_attempt_at, created_at)
    SELECT w.id, e.id, e.type, e.body, ${now}, ${now}
    FROM unnest(${events.map((e) => e.id)}::text[], ${events.map((e) => e.type)}::text[],
      ${events.map((e) => e.company_id)}::text[], ${bodies.map((b) => JSON.stringify(b))}::text[]) AS e(id, type, company_id, body)
    JOIN webhooks w ON w.enabled AND w.events @> jsonb_build_array(e.type)
      AND (w.company_id IS NULL OR w.company_id = e.company_id)
    ON CONFLICT (webhook_id, event_id) DO NOTHING`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}

/** Which of these types any enabled receiver wants: lets a caller skip building events nobody hears. */
export async function webhookTypesWanted<T extends WebhookEventType>(db: Db, types: readonly T[]): Promise<Set<T>> {
  const { rows } = await sql<{ type: T }>`
    SELECT t.type FROM unnest(${[...types]}::text[]) AS t(type)
    WHERE EXISTS (SELECT 1 FROM webhooks w WHERE w.enabled AND w.events @> jsonb_build_array(t.type))`.execute(db);
  return new Set(rows.map((r) => r.type));
}

/** Whether any enabled receiver wants the type: lets a caller skip building events nobody hears. */
export async function anyWebhookWants(db: Db, type: WebhookEventType): Promise<boolean> {
  const row = await db
    .selectFrom('webhooks')
    .select('id')
    .where('enabled', '=', true)
    .where(sql<boolean>`events @> ${JSON.stringify([type])}::jsonb`)
    .limit(1)
    .executeTakeFirst();
  return !!row;
}

export interface ClaimedDelivery {
  id: number;
  event_id: string;
  event_type: string;
  body: string;
  attempts: number;
  url: string;
  secret: string;
}

/** webhook_deliveries' claim rules (outbox/claim.ts). */
export const webhookOutbox = defineOutbox('webhook_deliveries', {
  maxAttempts: WEBHOOK_MAX_ATTEMPTS,
  leaseMs: WEBHOOK_CLAIM_LEASE_MS,
  httpStatus: true,
});

/** Claims due deliveries (webhookOutbox.claim) and reads them with their webhook. In a transaction. */
export async function claimDueDeliveries(trx: Db, now: Date, limit: number): Promise<ClaimedDelivery[]> {
  const ids = await webhookOutbox.claim(trx, now, limit);
  if (!ids.length) return [];
  const rows = await trx
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhooks as w', 'w.id', 'd.webhook_id')
    .select(['d.id', 'd.event_id', 'd.event_type', 'd.body', 'd.attempts', 'w.url', 'w.secret'])
    .where('d.id', 'in', ids)
    .execute();
  return inClaimOrder(ids, rows);
}

const statusFilter =
  (status: WebhookDeliveryStatus) => (eb: ExpressionBuilder<DB, 'webhook_deliveries' | 'webhooks'>) => {
    switch (status) {
      case 'sent':
        return eb('webhook_deliveries.sent_at', 'is not', null);
      case 'pending':
        return eb.and([
          eb('webhook_deliveries.sent_at', 'is', null),
          eb('webhook_deliveries.attempts', '<', WEBHOOK_MAX_ATTEMPTS),
        ]);
      case 'failed':
        return eb.and([
          eb('webhook_deliveries.sent_at', 'is', null),
          eb('webhook_deliveries.attempts', '>=', WEBHOOK_MAX_ATTEMPTS),
        ]);
      default:
        return eb.val(true);
    }
  };

/** The delivery log: newest first, of the caller's receivers (one, when webhookId is given). */
export async function listDeliveries(
  db: Db,
  company: string | null,
  q: { webhook_id?: number | undefined; status: WebhookDeliveryStatus; offset: number; limit: number },
) {
  const base = () => {
    let b = db
      .selectFrom('webhook_deliveries')
      .innerJoin('webhooks', 'webhooks.id', 'webhook_deliveries.webhook_id')
      .where(scoped(company))
      .where(statusFilter(q.status));
    if (q.webhook_id !== undefined) b = b.where('webhook_deliveries.webhook_id', '=', q.webhook_id);
    return b;
  };
  const [count, rows] = await Promise.all([
    base()
      .select(sql<number>`count(*)::int`.as('n'))
      .executeTakeFirstOrThrow(),
    base()
      .select([
        'webhook_deliveries.id',
        'webhook_deliveries.webhook_id',
        'webhooks.url',
        'webhook_deliveries.event_id',
        'webhook_deliveries.event_type',
        'webhook_deliveries.attempts',
        'webhook_deliveries.last_status',
        'webhook_deliveries.last_error',
        'webhook_deliveries.next_attempt_at',
        'webhook_deliveries.sent_at',
        'webhook_deliveries.created_at',
      ])
      .orderBy('webhook_deliveries.id', 'desc')
      .offset(q.offset)
      .limit(q.limit)
      .execute(),
  ]);
  const list: FromDb<typeof WebhookDeliveryRow>[] = rows.map((r) => ({
    ...r,
    id: Number(r.id),
    webhook_id: Number(r.webhook_id),
    status: webhookOutbox.status(r),
    next_attempt_at: r.next_attempt_at,
    sent_at: r.sent_at,
    created_at: r.created_at,
  }));
  return { count: count.n, list };
}

/** Delivered calls are kept 30 days for the log, like sent mail. */
export async function pruneDeliveries(db: Db, now: Date): Promise<void> {
  await db
    .deleteFrom('webhook_deliveries')
    .where('sent_at', 'is not', null)
    .where('sent_at', '<', new Date(now.getTime() - 30 * 86_400_000))
    .execute();
}

/** How far a log of another module was read; locked until the transaction ends. Starts at the log's end. */
export async function lockCursor(trx: Db, name: string, start: () => Promise<number>): Promise<number> {
  const row = await trx
    .selectFrom('webhook_cursors')
    .select('last_id')
    .where('name', '=', name)
    .forUpdate()
    .executeTakeFirst();
  if (row) return Number(row.last_id);
  const first = await start();
  await trx
    .insertInto('webhook_cursors')
    .values({ name, last_id: first })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  const again = await trx
    .selectFrom('webhook_cursors')
    .select('last_id')
    .where('name', '=', name)
    .forUpdate()
    .executeTakeFirstOrThrow();
  return Number(again.last_id);
}

export async function saveCursor(trx: Db, name: string, lastId: number): Promise<void> {
  await trx.updateTable('webhook_cursors').set({ last_id: lastId }).where('name', '=', name).execute();
}
