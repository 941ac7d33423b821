import { WEBHOOK_EVENT_HEADER, WEBHOOK_EVENT_ID_HEADER, WEBHOOK_SIGNATURE_HEADER } from '@fleet/contract';
import type { Db } from '../db/database.js';
import { systemClock, type Clock } from '../mail/clock.js';
import type { Log } from '../mail/mail-dispatcher.js';
import { postOnce } from '../mail/http-attempt.js';
import { OutboxRunner, type DispatchResult } from '../mail/outbox-runner.js';
import { signatureHeader } from './webhook-signature.js';
import { WEBHOOK_MAX_ATTEMPTS, WEBHOOK_TIMEOUT_MS, webhookRetryDelayMs } from './webhook-policy.js';
import { claimDueDeliveries, webhookOutbox, type ClaimedDelivery } from './webhook.repository.js';

export interface WebhookDispatcherOptions {
  db: Db;
  log: Log;
  clock?: Clock;
  batchSize?: number;
  timeoutMs?: number;
}

/**
 * Sends what webhook_deliveries holds, as MailDispatcher sends mail: a delivery is claimed by one
 * instance at a time and one with sent_at set is never sent again. A 2xx answer is delivered; any
 * other answer, a timeout or a refused connection is retried with backoff.
 */
export class WebhookDispatcher {
  private readonly clock: Clock;
  private readonly runner: OutboxRunner<ClaimedDelivery>;

  constructor(private readonly opts: WebhookDispatcherOptions) {
    this.clock = opts.clock ?? systemClock;
    this.runner = new OutboxRunner({
      db: opts.db,
      clock: this.clock,
      batchSize: opts.batchSize ?? 10,
      outbox: webhookOutbox,
      claim: claimDueDeliveries,
      send: (d) => this.send(d),
    });
  }

  runOnce(): Promise<DispatchResult> {
    return this.runner.runOnce();
  }

  stop(): Promise<void> {
    return this.runner.stop();
  }

  private async send(d: ClaimedDelivery): Promise<boolean> {
    const { db, log } = this.opts;
    const { status, error } = await postOnce(d.url, {
      headers: {
        'content-type': 'application/json',
        'user-agent': 'fleet-console-webhook/1',
        [WEBHOOK_SIGNATURE_HEADER]: signatureHeader(d.secret, d.body, Math.floor(this.clock().getTime() / 1000)),
        [WEBHOOK_EVENT_HEADER]: d.event_type,
        [WEBHOOK_EVENT_ID_HEADER]: d.event_id,
      },
      body: d.body,
      timeoutMs: this.opts.timeoutMs ?? WEBHOOK_TIMEOUT_MS,
    });
    if (error === null) {
      await webhookOutbox.sent(db, d.id, this.clock(), status);
      log.info({ deliveryId: d.id, event: d.event_type }, 'webhook delivered');
      return true;
    }
    await webhookOutbox.failed(
      db,
      d.id,
      error,
      new Date(this.clock().getTime() + webhookRetryDelayMs(d.attempts)),
      status,
    );
    const final = d.attempts >= WEBHOOK_MAX_ATTEMPTS;
    log.warn(
      { deliveryId: d.id, attempts: d.attempts, err: error },
      final ? 'webhook given up' : 'webhook failed, will retry',
    );
    return false;
  }
}
