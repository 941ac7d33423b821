import { BATCH_RECEIPT_DAYS } from '@fleet/contract';
import { pruneLoginAttempts } from '../credentials/login-limit.js';
import type { Config } from '../config.js';
import type { Db } from '../db/database.js';
import { createRequestScheduler } from '../engine/request-scheduler.js';
import { pruneBatchReceipts } from '../gateway/ingest.repository.js';
import { systemClock, type Clock } from '../outbox/index.js';
import { MailDispatcher, type Log } from '../mail/mail-dispatcher.js';
import { createMailTransport } from '../mail/mail-transport.js';
import { pruneSentMails } from '../mail/outbox.repository.js';
import { pruneNotificationEvents } from '../notify/notification.repository.js';
import { runSweep } from '../notify/sweep.js';
import { prunePasswordReset } from '../password-reset/password-reset.repository.js';
import { PushDispatcher } from '../push/push-dispatcher.js';
import { prunePushDeliveries } from '../push/push.repository.js';
import { queueCommandEvents } from '../webhooks/command-events.js';
import { WebhookDispatcher } from '../webhooks/webhook-dispatcher.js';
import { pruneDeliveries } from '../webhooks/webhook.repository.js';
import { applyTelemetryRetention } from '../telemetry/purge.repository.js';
import { compactLogPartitions, ensureLogPartitions } from '../telemetry/partitions.repository.js';
import { analyzeChangedTables, vacuumDeadTables } from '../db/statistics.js';
import { recountLists } from '../db/list-counts.js';
import { rebuildSearchIndexes } from '../db/search-indexes.js';
import { runTripDetection } from '../trips/detection.js';
import { queueScheduledReports } from '../reports/scheduled-reports.js';
import { discoverAddresses, fillAddresses } from '../geocode/fill.js';
import { geocodeProviders } from '../geocode/provider.js';
import { runEvery, type Job } from './run-every.js';

export const RESERVATION_INTERVAL_MS = 5_000;
export const MAIL_INTERVAL_MS = 5_000;
export const WEBHOOK_INTERVAL_MS = 5_000;
export const PUSH_INTERVAL_MS = 5_000;
export const SWEEP_INTERVAL_MS = 60_000;
export const CLEAN_UP_INTERVAL_MS = 3600_000;
export const STATISTICS_INTERVAL_MS = 300_000;
export const LIST_COUNTS_INTERVAL_MS = 300_000;
export const REPORT_INTERVAL_MS = 300_000;
export const TRIPS_INTERVAL_MS = 10_000;
export const GEOCODE_INTERVAL_MS = 1_000;
export const GEOCODE_DISCOVER_INTERVAL_MS = 30_000;

/**
 * Every piece of background work of the server, with its period. Only startServer starts them (buildApp
 * is HTTP alone), and each is safe on every instance sharing one database: a request fires once, a mail
 * is claimed by one instance, a sweep finding is recorded once (docs/engine-control.md,
 * docs/notifications.md).
 */
export function serverJobs(opts: { db: Db; config: Config; log: Log; clock?: Clock }): {
  jobs: Job[];
  close(): Promise<void>;
} {
  const { db, config, log } = opts;
  const clock = opts.clock ?? systemClock;
  // The demo has no mail server on purpose; in production a missing SMTP_URL is worth a warning.
  if (!config.SMTP_URL)
    log[config.production ? 'warn' : 'info'](
      {},
      'SMTP_URL is not set: mail is kept in the outbox (mail_outbox) and logged, not sent',
    );
  const mail = new MailDispatcher({
    db,
    transport: config.SMTP_URL ? createMailTransport(config.SMTP_URL) : null,
    from: config.MAIL_FROM,
    log,
    clock,
  });
  const webhooks = new WebhookDispatcher({ db, log, clock, allowPrivate: config.WEBHOOK_ALLOW_PRIVATE });
  const push = new PushDispatcher({ db, log, vapid: config, hosts: config.PUSH_SERVICE_HOSTS, clock });
  const reservations = createRequestScheduler({ db, clock });
  const jobs: Job[] = [
    {
      name: 'reservation requests and command expiry',
      periodMs: RESERVATION_INTERVAL_MS,
      run: () => reservations.tick(),
    },
    { name: 'mail dispatch', periodMs: MAIL_INTERVAL_MS, runAtStart: true, run: () => mail.runOnce() },
    {
      name: 'webhook dispatch',
      periodMs: WEBHOOK_INTERVAL_MS,
      runAtStart: true,
      run: async () => {
        await queueCommandEvents(db, clock());
        return webhooks.runOnce();
      },
    },
    { name: 'push dispatch', periodMs: PUSH_INTERVAL_MS, runAtStart: true, run: () => push.runOnce() },
    {
      name: 'notification sweep',
      periodMs: SWEEP_INTERVAL_MS,
      run: () => runSweep(db, { publicUrl: config.publicUrl, clock }),
    },
    {
      // Day partitions of the telemetry logs ahead of time, retention by dropping whole days, finished days' indexes packed.
      name: 'telemetry partitions',
      periodMs: CLEAN_UP_INTERVAL_MS,
      runAtStart: true,
      run: async () => {
        await ensureLogPartitions(db, clock());
        await applyTelemetryRetention(db, clock(), config.TELEMETRY_RETENTION_DAYS);
        await compactLogPartitions(db, clock(), Boolean(config.DATABASE_URL));
      },
    },
    {
      // The lists' counts kept by triggers, summed again from their tables: few rows, and exact (db/list-counts.ts).
      name: 'list counts',
      periodMs: LIST_COUNTS_INTERVAL_MS,
      runAtStart: true,
      run: () => recountLists(db),
    },
    {
      // A list table rewritten by a tenth of its rows since: its search indexes rebuilt (db/search-indexes.ts).
      name: 'search indexes',
      periodMs: CLEAN_UP_INTERVAL_MS,
      run: () => rebuildSearchIndexes(db, { concurrently: Boolean(config.DATABASE_URL) }),
    },
    {
      // Trips and stops from the positions that arrived since the last run (trips/detection.ts, docs/trips.md).
      name: 'trip detection',
      periodMs: TRIPS_INTERVAL_MS,
      runAtStart: true,
      run: () => runTripDetection(db, { embedded: !config.DATABASE_URL }),
    },
    ...geocodeJobs(db, config, log),
    {
      // The subscribed fleet summaries, queued as mails from the report hour in Japan (reports/scheduled-reports.ts).
      name: 'scheduled reports',
      periodMs: REPORT_INTERVAL_MS,
      runAtStart: true,
      run: () => queueScheduledReports(db, clock()),
    },
    {
      name: 'clean-up',
      periodMs: CLEAN_UP_INTERVAL_MS,
      run: () =>
        Promise.all([
          pruneLoginAttempts(db),
          pruneBatchReceipts(db, BATCH_RECEIPT_DAYS),
          pruneSentMails(db, clock()),
          pruneDeliveries(db, clock()),
          prunePushDeliveries(db, clock()),
          pruneNotificationEvents(db, clock()),
          prunePasswordReset(db),
        ]),
    },
  ];
  // The embedded database has no autovacuum: nothing else takes dead rows away or keeps its planner's statistics
  // (db/statistics.ts).
  if (!config.DATABASE_URL)
    jobs.push({
      name: 'vacuum and table statistics (embedded database)',
      periodMs: STATISTICS_INTERVAL_MS,
      runAtStart: true,
      run: async () => {
        await vacuumDeadTables(db);
        await analyzeChangedTables(db);
      },
    });
  return { jobs, close: () => Promise.all([mail.stop(), webhooks.stop(), push.stop()]).then(() => undefined) };
}

/**
 * Addresses of the stored positions, looked up after ingest (geocode/fill.ts, docs/geocoding.md): new cells found
 * every half minute, looked up every second within the deployment's rate limit. None when REVERSE_GEOCODER_URL=off.
 */
function geocodeJobs(db: Db, config: Config, log: Log): Job[] {
  const { reverse } = geocodeProviders(config);
  if (!reverse) return [];
  return [
    {
      name: 'geocode discovery',
      periodMs: GEOCODE_DISCOVER_INTERVAL_MS,
      runAtStart: true,
      run: () => discoverAddresses(db),
    },
    {
      name: 'geocode fill',
      periodMs: GEOCODE_INTERVAL_MS,
      run: () => fillAddresses(db, { reverse, rate: config.GEOCODER_RATE, log }),
    },
  ];
}

/** Starts the server's jobs; stop() waits for runs in progress, then closes the mail transport. */
export function startJobs(opts: { db: Db; config: Config; log: Log; clock?: Clock }) {
  const { jobs, close } = serverJobs(opts);
  const running = runEvery(jobs, opts.log);
  return {
    stop: async () => {
      await running.stop();
      await close();
    },
  };
}
