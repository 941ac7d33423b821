import type { Db } from '../db/database.js';
import { systemClock, type Clock, OutboxRunner, type DispatchResult, retryDelayMs } from '../outbox/index.js';
import { MAIL_MAX_ATTEMPTS } from './mail-policy.js';
import type { MailTransport } from './mail-transport.js';
import { claimDueMails, markSent, pendingAfter, mailOutbox, type ClaimedMail } from './outbox.repository.js';

/** The part of a pino / Fastify logger the mail and notification code uses. */
export interface Log {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
  debug(obj: object, msg: string): void;
}

export interface DispatcherOptions {
  db: Db;
  /** null: no SMTP configured; mail stays in the outbox and is logged. */
  transport: MailTransport | null;
  from: string;
  log: Log;
  clock?: Clock;
  /** Mails claimed per round. */
  batchSize?: number;
}

export type { DispatchResult } from '../outbox/index.js';

/**
 * Sends what the outbox holds. Any number of instances may run one over the
 * same database: a mail is claimed by one of them at a time, and a mail with
 * sent_at set is never sent again, so a restart re-sends nothing. Only a crash
 * between the SMTP server's "OK" and the sent_at update can repeat a mail.
 */
export class MailDispatcher {
  private readonly clock: Clock;
  private readonly runner: OutboxRunner<ClaimedMail>;
  private logging: Promise<void> | undefined;
  private lastLoggedId = 0;

  constructor(private readonly opts: DispatcherOptions) {
    this.clock = opts.clock ?? systemClock;
    this.runner = new OutboxRunner({
      db: opts.db,
      clock: this.clock,
      batchSize: opts.batchSize ?? 10,
      outbox: mailOutbox,
      claim: claimDueMails,
      send: (mail) => this.send(mail),
    });
  }

  /** One pass over every due mail; overlapping calls share the pass in progress. */
  runOnce(): Promise<DispatchResult> {
    if (this.opts.transport) return this.runner.runOnce();
    // No SMTP: the mail stays queued and is written to the log once.
    this.logging ??= this.logKeptMails().finally(() => {
      this.logging = undefined;
    });
    return this.logging.then(() => ({ sent: 0, failed: 0 }));
  }

  /** Waits for a pass in progress, then closes the transport (jobs/jobs.ts runs the passes). */
  async stop(): Promise<void> {
    await Promise.all([this.runner.stop(), this.logging?.catch(() => undefined)]);
    this.opts.transport?.close?.();
  }

  private async send(mail: ClaimedMail): Promise<boolean> {
    const { db, transport, from, log } = this.opts;
    try {
      await transport!.sendMail({
        from,
        to: mail.to_addr,
        subject: mail.subject,
        text: mail.body,
        ...(mail.attachments.length ? { attachments: mail.attachments } : {}),
      });
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      const next = new Date(this.clock().getTime() + retryDelayMs(mail.attempts));
      await mailOutbox.failed(db, mail.id, message, next);
      const final = mail.attempts >= MAIL_MAX_ATTEMPTS;
      log.warn(
        { mailId: mail.id, attempts: mail.attempts, err: message },
        final ? 'mail given up' : 'mail send failed, will retry',
      );
      return false;
    }
    await markSent(db, mail, this.clock());
    log.info({ mailId: mail.id, kind: mail.kind }, 'mail sent');
    return true;
  }

  /** Without SMTP: each mail is logged once per process and stays in the outbox for later. */
  private async logKeptMails(): Promise<void> {
    for (;;) {
      const rows = await pendingAfter(this.opts.db, this.lastLoggedId, 100);
      for (const r of rows) {
        this.opts.log.info(
          { mailId: r.id, to: r.to_addr, subject: r.subject, kind: r.kind },
          'mail kept in the outbox: SMTP_URL is not set',
        );
        this.opts.log.debug({ mailId: r.id, body: r.body }, 'mail body');
        this.lastLoggedId = r.id;
      }
      if (rows.length < 100) return;
    }
  }
}
