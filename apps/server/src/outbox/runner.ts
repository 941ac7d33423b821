import type { Db } from '../db/database.js';
import type { Clock } from './clock.js';
import type { Outbox } from './claim.js';

export interface DispatchResult {
  sent: number;
  failed: number;
}

/** What one outbox (mail, webhook deliveries, push deliveries) gives the runner. */
export interface OutboxSteps<T extends { id: number }> {
  db: Db;
  clock: Clock;
  batchSize: number;
  /**
   * The outbox's table rules (defineOutbox): its lease (past half of it the rest of a batch is handed back)
   * and its release (claimed items handed back, due at once).
   */
  outbox: Pick<Outbox, 'rules' | 'release'>;
  /** Locks due items (SKIP LOCKED), counts the attempt and leases them, with what sending needs; runs in a transaction. */
  claim: (trx: Db, now: Date, limit: number) => Promise<T[]>;
  /** Sends one item and records the outcome; true when it was delivered. */
  send: (item: T) => Promise<boolean>;
}

/**
 * The delivery loop every outbox shares: claim a batch, send it item by item, claim again until nothing
 * is due. Instances sharing the database never send one item at once (the claim), an item whose outcome is
 * recorded is never sent again, and a batch taking longer than half its lease is handed back before another
 * instance may take it. Overlapping runOnce calls share the pass in progress.
 */
export class OutboxRunner<T extends { id: number }> {
  private running: Promise<DispatchResult> | undefined;

  constructor(private readonly steps: OutboxSteps<T>) {}

  runOnce(): Promise<DispatchResult> {
    this.running ??= this.pass().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  /** Waits for a pass in progress. */
  async stop(): Promise<void> {
    await this.running?.catch(() => undefined);
  }

  private async pass(): Promise<DispatchResult> {
    const { db, clock, batchSize, outbox, claim, send } = this.steps;
    const { leaseMs } = outbox.rules;
    const result = { sent: 0, failed: 0 };
    for (;;) {
      const claimedAt = clock();
      const batch = await db.transaction().execute((trx) => claim(trx, claimedAt, batchSize));
      if (!batch.length) return result;
      for (const [i, item] of batch.entries()) {
        // Past half the lease another instance could soon take these: hand them back instead.
        if (clock().getTime() - claimedAt.getTime() > leaseMs / 2) {
          await outbox.release(
            db,
            batch.slice(i).map((x) => x.id),
            clock(),
          );
          return result;
        }
        if (await send(item)) result.sent++;
        else result.failed++;
      }
    }
  }
}
