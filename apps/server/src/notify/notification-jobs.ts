import type { Config } from '../config.js';
import type { Db } from '../db/database.js';
import { systemClock, type Clock } from '../mail/clock.js';
import { MailDispatcher, type Log } from '../mail/mail-dispatcher.js';
import { createMailTransport } from '../mail/mail-transport.js';
import { pruneSentMails } from '../mail/outbox.repository.js';
import { prunePasswordReset } from '../password-reset/password-reset.repository.js';
import { pruneNotificationEvents } from './notification.repository.js';
import { runSweep } from './sweep.js';

export const MAIL_INTERVAL_MS = 5_000;
export const SWEEP_INTERVAL_MS = 60_000;
const PRUNE_INTERVAL_MS = 3600_000;

export interface NotificationJobs {
  dispatcher: MailDispatcher;
  stop(): Promise<void>;
}

/**
 * The background work of notifications, started by startServer: the mail
 * dispatcher (every 5 s), the sweep of time-based items (every minute) and an
 * hourly clean-up. stop() waits for a run in progress to finish.
 */
export function startNotificationJobs(opts: { db: Db; config: Config; log: Log; clock?: Clock }): NotificationJobs {
  const { db, config, log } = opts;
  const clock = opts.clock ?? systemClock;
  if (!config.SMTP_URL) log.warn({}, 'SMTP_URL is not set: mail is kept in the outbox (mail_outbox) and logged, not sent');
  const dispatcher = new MailDispatcher({
    db,
    transport: config.SMTP_URL ? createMailTransport(config.SMTP_URL) : null,
    from: config.MAIL_FROM,
    log,
    clock,
  });
  dispatcher.start(MAIL_INTERVAL_MS);

  let sweeping: Promise<unknown> | undefined;
  const sweep = () => {
    sweeping ??= runSweep(db, { publicUrl: config.publicUrl, clock })
      .catch((err: unknown) => log.warn({ err }, 'notification sweep failed'))
      .finally(() => {
        sweeping = undefined;
      });
  };
  let pruning: Promise<unknown> | undefined;
  const prune = () => {
    const now = clock();
    pruning ??= Promise.all([pruneSentMails(db, now), pruneNotificationEvents(db, now), prunePasswordReset(db)])
      .catch((err: unknown) => log.warn({ err }, 'notification clean-up failed'))
      .finally(() => {
        pruning = undefined;
      });
  };
  const timers = [setInterval(sweep, SWEEP_INTERVAL_MS), setInterval(prune, PRUNE_INTERVAL_MS)];
  for (const t of timers) t.unref();

  return {
    dispatcher,
    stop: async () => {
      for (const t of timers) clearInterval(t);
      await Promise.all([sweeping, pruning]);
      await dispatcher.stop();
    },
  };
}
