import webPush from 'web-push';
import type { Db } from '../db/database.js';
import { systemClock, type Clock } from '../mail/clock.js';
import type { Log } from '../mail/mail-dispatcher.js';
import {
  PUSH_CLAIM_LEASE_MS,
  PUSH_MAX_ATTEMPTS,
  PUSH_TIMEOUT_MS,
  PUSH_TTL_SECONDS,
  pushRetryDelayMs,
} from './push-policy.js';
import {
  claimDuePushes,
  markPushFailed,
  markPushSent,
  markSubscriptionGone,
  releasePushClaims,
  type ClaimedPush,
} from './push.repository.js';
import { pushHostAllowed, type PushHosts } from './push-hosts.js';
import { vapidKeys, type VapidConfig } from './vapid.js';

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
  private running: Promise<{ sent: number; failed: number }> | undefined;

  constructor(private readonly opts: PushDispatcherOptions) {
    this.clock = opts.clock ?? systemClock;
  }

  runOnce(): Promise<{ sent: number; failed: number }> {
    this.running ??= this.pass().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  async stop(): Promise<void> {
    await this.running?.catch(() => undefined);
  }

  private async pass() {
    const result = { sent: 0, failed: 0 };
    const claimedAt = this.clock();
    let batch = await this.opts.db
      .transaction()
      .execute((trx) => claimDuePushes(trx, claimedAt, this.opts.batchSize ?? 10));
    if (!batch.length) return result;
    const keys = await vapidKeys(this.opts.db, this.opts.vapid);
    for (;;) {
      const started = this.clock();
      for (const [i, d] of batch.entries()) {
        if (this.clock().getTime() - started.getTime() > PUSH_CLAIM_LEASE_MS / 2) {
          await releasePushClaims(
            this.opts.db,
            batch.slice(i).map((x) => x.id),
            this.clock(),
          );
          return result;
        }
        if (await this.send(d, keys)) result.sent++;
        else result.failed++;
      }
      const now = this.clock();
      batch = await this.opts.db.transaction().execute((trx) => claimDuePushes(trx, now, this.opts.batchSize ?? 10));
      if (!batch.length) return result;
    }
  }

  private async send(d: ClaimedPush, keys: Awaited<ReturnType<typeof vapidKeys>>): Promise<boolean> {
    const { db, log } = this.opts;
    let status: number | null = null;
    let error: string | null = null;
    if (!pushHostAllowed(d.endpoint, this.opts.hosts)) {
      // Saved while another list was configured: never contacted, and the subscription goes.
      await markSubscriptionGone(db, d, null, '送信先が許可されたプッシュ通知サービスではないため送信しませんでした');
      log.warn({ pushId: d.id }, 'push endpoint not in PUSH_SERVICE_HOSTS, subscription removed');
      return false;
    }
    try {
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
      const res = await fetch(req.endpoint, {
        method: 'POST',
        headers: req.headers as Record<string, string>,
        body: req.body ? new Uint8Array(req.body) : null,
        redirect: 'manual',
        signal: AbortSignal.timeout(this.opts.timeoutMs ?? PUSH_TIMEOUT_MS),
      });
      status = res.status;
      const text = await res.text().catch(() => '');
      if (res.status < 200 || res.status >= 300) error = `HTTP ${res.status}${text ? `: ${text.slice(0, 200)}` : ''}`;
    } catch (err) {
      const cause = err instanceof Error && err.cause instanceof Error ? `: ${err.cause.message}` : '';
      error = `${err instanceof Error ? err.message : String(err)}${cause}`;
    }
    if (error === null) {
      await markPushSent(db, d.id, status!, this.clock());
      log.info({ pushId: d.id }, 'push delivered');
      return true;
    }
    if (status === 404 || status === 410) {
      await markSubscriptionGone(db, d, status, `${error}（購読が無効になったため削除しました）`);
      log.info({ pushId: d.id, status }, 'push subscription gone, removed');
      return false;
    }
    await markPushFailed(db, d.id, status, error, new Date(this.clock().getTime() + pushRetryDelayMs(d.attempts)));
    const final = d.attempts >= PUSH_MAX_ATTEMPTS;
    log.warn({ pushId: d.id, attempts: d.attempts, err: error }, final ? 'push given up' : 'push failed, will retry');
    return false;
  }
}
