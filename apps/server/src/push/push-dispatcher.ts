import webPush from 'web-push';
import type { Db } from '../db/database.js';
import {
  systemClock,
  type Clock,
  postOnce,
  type HttpAttempt,
  OutboxRunner,
  type DispatchResult,
} from '../outbox/index.js';
import type { Log } from '../mail/mail-dispatcher.js';
import { PUSH_MAX_ATTEMPTS, PUSH_TIMEOUT_MS, PUSH_TTL_SECONDS, pushRetryDelayMs } from './push-policy.js';
import { claimDuePushes, markSubscriptionGone, pushOutbox, type ClaimedPush } from './push.repository.js';
import { pushHostAllowed, type PushHosts } from './push-hosts.js';
import { vapidKeys, type VapidConfig, type VapidKeys } from './vapid.js';

export interface PushDispatcherOptions {
  db: Db;
  log: Log;
  vapid: VapidConfig;
  /** The push services it may send to (PUSH_SERVICE_HOSTS); a subscription elsewhere is removed unsent. */
  hosts: PushHosts;
  clock?: Clock;
  batchSize?: number;
  timeoutMs?: number;
}

/**
 * Sends what push_deliveries holds, as WebhookDispatcher sends webhooks: a delivery is claimed by one
 * instance at a time and one with sent_at set is never sent again. web-push encrypts the payload
 * (RFC 8291, aes128gcm) and signs the VAPID JWT (RFC 8292); the request itself is made here, with the
 * same timeout and no redirects. 2xx is delivered; 404/410 means the subscription is gone (removed,
 * not retried); anything else is retried with backoff.
 */
export class PushDispatcher {
  private readonly clock: Clock;
  private readonly runner: OutboxRunner<ClaimedPush>;
  /** The VAPID pair, read once (from the environment, or the pair stored in the database). */
  private keys: Promise<VapidKeys> | undefined;

  constructor(private readonly opts: PushDispatcherOptions) {
    this.clock = opts.clock ?? systemClock;
    this.runner = new OutboxRunner({
      db: opts.db,
      clock: this.clock,
      batchSize: opts.batchSize ?? 10,
      outbox: pushOutbox,
      claim: claimDuePushes,
      send: (d) => this.send(d),
    });
  }

  runOnce(): Promise<DispatchResult> {
    return this.runner.runOnce();
  }

  stop(): Promise<void> {
    return this.runner.stop();
  }

  private vapid(): Promise<VapidKeys> {
    this.keys ??= vapidKeys(this.opts.db, this.opts.vapid).catch((err: unknown) => {
      this.keys = undefined;
      throw err;
    });
    return this.keys;
  }

  private async send(d: ClaimedPush): Promise<boolean> {
    const { db, log } = this.opts;
    if (!pushHostAllowed(d.endpoint, this.opts.hosts)) {
      // Saved while another list was configured: never contacted, and the subscription goes.
      await markSubscriptionGone(db, d, null, '送信先が許可されたプッシュ通知サービスではないため送信しませんでした');
      log.warn({ pushId: d.id }, 'push endpoint not in PUSH_SERVICE_HOSTS, subscription removed');
      return false;
    }
    let attempt: HttpAttempt;
    try {
      const keys = await this.vapid();
      const req = webPush.generateRequestDetails(
        { endpoint: d.endpoint, keys: { p256dh: d.p256dh, auth: d.auth } },
        d.payload,
        {
          vapidDetails: keys,
          TTL: PUSH_TTL_SECONDS,
          contentEncoding: 'aes128gcm',
          urgency: 'high',
        },
      );
      attempt = await postOnce(req.endpoint, {
        headers: req.headers as Record<string, string>,
        body: req.body ? new Uint8Array(req.body) : null,
        timeoutMs: this.opts.timeoutMs ?? PUSH_TIMEOUT_MS,
        detail: true,
      });
    } catch (err) {
      // The VAPID pair could not be read or the payload not encrypted: retried like a failed call.
      attempt = { status: null, error: err instanceof Error ? err.message : String(err) };
    }
    const { status, error } = attempt;
    if (error === null) {
      await pushOutbox.sent(db, d.id, this.clock(), status);
      log.info({ pushId: d.id }, 'push delivered');
      return true;
    }
    if (status === 404 || status === 410) {
      await markSubscriptionGone(db, d, status, `${error}（購読が無効になったため削除しました）`);
      log.info({ pushId: d.id, status }, 'push subscription gone, removed');
      return false;
    }
    await pushOutbox.failed(db, d.id, error, new Date(this.clock().getTime() + pushRetryDelayMs(d.attempts)), status);
    const final = d.attempts >= PUSH_MAX_ATTEMPTS;
    log.warn({ pushId: d.id, attempts: d.attempts, err: error }, final ? 'push given up' : 'push failed, will retry');
    return false;
  }
}
