import { sql } from 'kysely';
import type { Db } from '../db/database.js';

/** The outbox tables: each has id, attempts, next_attempt_at and sent_at, and one owning module. */
export type OutboxTableName = 'mail_outbox' | 'webhook_deliveries' | 'push_deliveries';

export interface OutboxRules {
  /** Attempts after which an item is left as failed. */
  maxAttempts: number;
  /** How long a claimed item is reserved for the instance sending it. */
  leaseMs: number;
  /** A further condition an item must meet to be due (push: not given up). */
  alsoDue?: 'not_given_up';
  /** The table keeps the last answer's HTTP status (last_status): webhooks and push. */
  httpStatus?: boolean;
}

/** An item's state as the screens show it. */
export type OutboxStatus = 'sent' | 'failed' | 'pending';

/** The claim rules of one outbox table, for its owning repository (scripts/check-architecture.mjs reads the name). */
export interface Outbox {
  readonly table: OutboxTableName;
  readonly rules: OutboxRules;
  /**
   * Locks up to `limit` due items for this instance, skipping rows another instance is claiming right now
   * (FOR UPDATE SKIP LOCKED), counts the attempt (so an item that crashes the sender cannot loop forever)
   * and reserves them for the lease. Returns their ids, oldest first. Run inside a transaction.
   */
  claim(trx: Db, now: Date, limit: number): Promise<number[]>;
  /** Hands claimed but unsent items back, due at once, uncounting the attempt (the run stopped before them). */
  release(db: Db, ids: number[], now: Date): Promise<void>;
  /** Records a delivery (sent_at; with httpStatus the answer's status): it is never sent again. */
  sent(db: Db, id: number, now: Date, status?: number | null): Promise<void>;
  /** Records a failed attempt (the error, cut to 1,000 characters) and when to try again. */
  failed(db: Db, id: number, error: string, nextAttemptAt: Date, status?: number | null): Promise<void>;
  status(row: { sent_at: unknown; attempts: number }): OutboxStatus;
}

/** The one claim rule every outbox (mail, webhook deliveries, push deliveries) follows. */
export function defineOutbox(table: OutboxTableName, rules: OutboxRules): Outbox {
  const t = sql.table(table);
  const alsoDue = rules.alsoDue === 'not_given_up' ? sql`AND NOT gave_up` : sql``;
  return {
    table,
    rules,
    async claim(trx, now, limit) {
      const lease = new Date(now.getTime() + rules.leaseMs);
      const { rows } = await sql<{ id: string | number }>`
        UPDATE ${t} SET attempts = attempts + 1, next_attempt_at = ${lease}
        WHERE id IN (
          SELECT id FROM ${t}
          WHERE sent_at IS NULL AND attempts < ${rules.maxAttempts} AND next_attempt_at <= ${now} ${alsoDue}
          ORDER BY next_attempt_at, id
          LIMIT ${limit}
          FOR UPDATE SKIP LOCKED)
        RETURNING id`.execute(trx);
      return rows.map((r) => Number(r.id)).sort((a, b) => a - b);
    },
    async release(db, ids, now) {
      if (!ids.length) return;
      await sql`
        UPDATE ${t} SET attempts = attempts - 1, next_attempt_at = ${now}
        WHERE id IN (${sql.join(ids)}) AND sent_at IS NULL`.execute(db);
    },
    async sent(db, id, now, status = null) {
      const answer = rules.httpStatus ? sql`, last_status = ${status}` : sql``;
      await sql`UPDATE ${t} SET sent_at = ${now}, last_error = NULL ${answer} WHERE id = ${id}`.execute(db);
    },
    async failed(db, id, error, nextAttemptAt, status = null) {
      const answer = rules.httpStatus ? sql`, last_status = ${status}` : sql``;
      await sql`
        UPDATE ${t} SET last_error = ${error.slice(0, 1000)}, next_attempt_at = ${nextAttemptAt} ${answer}
        WHERE id = ${id}`.execute(db);
    },
    status: (row) => (row.sent_at !== null ? 'sent' : row.attempts >= rules.maxAttempts ? 'failed' : 'pending'),
  };
}

/** Sorts rows read back by claimed ids into the claim's order. */
export function inClaimOrder<T extends { id: number | string }>(ids: number[], rows: T[]): (T & { id: number })[] {
  const byId = new Map(rows.map((r) => [Number(r.id), r]));
  return ids.flatMap((id) => {
    const row = byId.get(id);
    return row ? [{ ...row, id }] : [];
  });
}
