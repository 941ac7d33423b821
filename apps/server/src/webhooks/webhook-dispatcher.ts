import { WEBHOOK_EVENT_HEADER, WEBHOOK_EVENT_ID_HEADER, WEBHOOK_SIGNATURE_HEADER } from '@fleet/contract';
import type { Db } from '../db/database.js';
import {
  systemClock,
  type Clock,
  postOnce,
  type AddressGuard,
  type Resolver,
  OutboxRunner,
  type DispatchResult,
} from '../outbox/index.js';
import type { Log } from '../mail/mail-dispatcher.js';
import { signatureHeader } from './webhook-signature.js';
import { WEBHOOK_MAX_ATTEMPTS, WEBHOOK_TIMEOUT_MS, webhookRetryDelayMs } from './webhook-policy.js';
import { claimDueDeliveries, webhookOutbox, type ClaimedDelivery } from './webhook.repository.js';
import { isPublicAddress } from './webhook-target.js';

export interface WebhookDispatcherOptions {
  db: Db;
  log: Log;
  clock?: Clock;
  batchSize?: number;
  timeoutMs?: number;
  /** WEBHOOK_ALLOW_PRIVATE: receivers on this machine or an internal network may be called. */
  allowPrivate: boolean;
  /** How host names are resolved (the system's resolver unless a test answers for DNS). */
  resolve?: Resolver;
}

/**
 * Sends what webhook_deliveries holds, as MailDispatcher sends mail: a delivery is claimed by one
 * instance at a time and one with sent_at set is never sent again. A 2xx answer is delivered; any
 * other answer, a timeout, a refused connection or a target that is not allowed is retried with backoff,
 * and the log row says which in a word (deliveryErrorMessages).
 */
export class WebhookDispatcher {
  private readonly clock: Clock;
  private readonly runner: OutboxRunner<ClaimedDelivery>;
  private readonly guard: AddressGuard;

  constructor(private readonly opts: WebhookDispatcherOptions) {
    this.clock = opts.clock ?? systemClock;
    // Every address a receiver's name resolves to is checked, and the call connects to those addresses
    // alone (docs/security.md "Outbound calls"); with the flag every address is allowed, still resolved once.
    this.guard = {
      allowed: opts.allowPrivate ? () => true : isPublicAddress,
      ...(opts.resolve ? { resolve: opts.resolve } : {}),
    };
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
    const { status, error, cause } = await postOnce(d.url, {
      headers: {
        'content-type': 'application/json',
        'user-agent': 'fleet-console-webhook/1',
        [WEBHOOK_SIGNATURE_HEADER]: signatureHeader(d.secret, d.body, Math.floor(this.clock().getTime() / 1000)),
        [WEBHOOK_EVENT_HEADER]: d.event_type,
        [WEBHOOK_EVENT_ID_HEADER]: d.event_id,
      },
      body: d.body,
      timeoutMs: this.opts.timeoutMs ?? WEBHOOK_TIMEOUT_MS,
      guard: this.guard,
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
      { deliveryId: d.id, attempts: d.attempts, err: error, cause },
      final ? 'webhook given up' : 'webhook failed, will retry',
    );
    return false;
  }
}
