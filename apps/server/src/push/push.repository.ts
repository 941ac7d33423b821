import { sql } from 'kysely';
import type { Db } from '../db/database.js';
import { defineOutbox, inClaimOrder } from '../outbox/index.js';
import { PUSH_CLAIM_LEASE_MS, PUSH_MAX_ATTEMPTS } from './push-policy.js';

/**
 * push/ owns push_vapid_keys, push_subscriptions and push_deliveries. notify/ queues messages with
 * enqueuePush inside the transaction that records the notification; the dispatcher job sends them.
 */

export interface SubscriptionInput {
  endpoint: string;
  p256dh: string;
  auth: string;
  user_agent: string;
}

/**
 * Stores the browser's subscription for the account. An endpoint is one browser profile: subscribed
 * again by another account (someone else signed in there), it moves to that account, and what was
 * still queued for the previous account is not sent to it.
 */
export async function saveSubscription(db: Db, accountId: string, s: SubscriptionInput, now: Date): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const row = await trx
      .insertInto('push_subscriptions')
      .values({ account_id: accountId, ...s, created_at: now })
      .onConflict((oc) =>
        oc
          .column('endpoint')
          .doUpdateSet({ account_id: accountId, p256dh: s.p256dh, auth: s.auth, user_agent: s.user_agent }),
      )
      .returning('id')
      .executeTakeFirstOrThrow();
    await trx
      .updateTable('push_deliveries')
      .set({ gave_up: true, last_error: 'このブラウザの購読が別のアカウントに移りました' })
      .where('subscription_id', '=', row.id)
      .where('account_id', '<>', accountId)
      .where('sent_at', 'is', null)
      .where('gave_up', '=', false)
      .execute();
  });
}

/** Removes the account's own subscription of `endpoint` and gives up what was queued for it. Returns whether it was found. */
export async function deleteSubscription(
  db: Db,
  accountId: string,
  endpoint: string,
  reason: string,
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom('push_subscriptions')
      .select('id')
      .where('endpoint', '=', endpoint)
      .where('account_id', '=', accountId)
      .forUpdate()
      .executeTakeFirst();
    if (!row) return false;
    await removeSubscription(trx, Number(row.id), reason);
    return true;
  });
}

/** Deletes a subscription; its unsent deliveries stay in the history as failed with `reason`. */
export async function removeSubscription(db: Db, subscriptionId: number, reason: string): Promise<void> {
  await db
    .updateTable('push_deliveries')
    .set({ gave_up: true, last_error: reason })
    .where('subscription_id', '=', subscriptionId)
    .where('sent_at', 'is', null)
    .where('gave_up', '=', false)
    .execute();
  await db.deleteFrom('push_subscriptions').where('id', '=', subscriptionId).execute();
}

export interface PushMessage {
  account_id: string;
  /** Stable per notification: queued twice, it is sent once per subscription. */
  event_id: string;
  item: string;
  car_id: string;
  company_id: string | null;
  payload: string;
}

/** Queues the message for every browser the account has subscribed. One statement; call it in the notification's transaction. */
export async function enqueuePush(db: Db, m: PushMessage, now: Date): Promise<number> {
  const result = await sql`
    INSERT INTO push_deliveries (subscription_id, account_id, endpoint, event_id, item, car_id, company_id, payload,
      next_attempt_at, created_at)
    SELECT s.id, s.account_id, s.endpoint, ${m.event_id}, ${m.item}, ${m.car_id}, ${m.company_id}, ${m.payload},
      ${now}, ${now}
    FROM push_subscriptions s
    WHERE s.account_id = ${m.account_id}
    ON CONFLICT (subscription_id, event_id) DO NOTHING`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}

export interface ClaimedPush {
  id: number;
  subscription_id: number;
  endpoint: string;
  p256dh: string;
  auth: string;
  payload: string;
  attempts: number;
}

/** push_deliveries' claim rules (outbox/claim.ts): a delivery given up is never due. */
export const pushOutbox = defineOutbox('push_deliveries', {
  maxAttempts: PUSH_MAX_ATTEMPTS,
  leaseMs: PUSH_CLAIM_LEASE_MS,
  alsoDue: 'not_given_up',
  httpStatus: true,
});

/** Claims due deliveries (pushOutbox.claim) and reads them with their subscription. In a transaction. */
export async function claimDuePushes(trx: Db, now: Date, limit: number): Promise<ClaimedPush[]> {
  const ids = await pushOutbox.claim(trx, now, limit);
  if (!ids.length) return [];
  const rows = await trx
    .selectFrom('push_deliveries as d')
    .innerJoin('push_subscriptions as s', 's.id', 'd.subscription_id')
    .select(['d.id', 's.id as subscription_id', 's.endpoint', 's.p256dh', 's.auth', 'd.payload', 'd.attempts'])
    .where('d.id', 'in', ids)
    .execute();
  return inClaimOrder(ids, rows).map((r) => ({ ...r, subscription_id: Number(r.subscription_id) }));
}

/** The push service says the subscription is gone (404/410): the delivery fails and the subscription is removed. */
export async function markSubscriptionGone(
  db: Db,
  d: Pick<ClaimedPush, 'id' | 'subscription_id'>,
  status: number | null,
  error: string,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.updateTable('push_deliveries').set({ last_status: status }).where('id', '=', d.id).execute();
    await removeSubscription(trx, d.subscription_id, error);
  });
}

/** Sent and given-up deliveries are kept 30 days for the history, like sent mail. */
export async function prunePushDeliveries(db: Db, now: Date): Promise<void> {
  const before = new Date(now.getTime() - 30 * 86_400_000);
  await db
    .deleteFrom('push_deliveries')
    .where((eb) =>
      eb.or([
        eb.and([eb('sent_at', 'is not', null), eb('sent_at', '<', before)]),
        eb.and([eb('sent_at', 'is', null), eb('created_at', '<', before), eb('gave_up', '=', true)]),
      ]),
    )
    .execute();
}
