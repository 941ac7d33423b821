import { createServer } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MailDispatcher } from '../src/mail/mail-dispatcher.js';
import { enqueueMail, REDACTED_BODY } from '../src/mail/outbox.repository.js';
import { retryDelayMs } from '../src/outbox/index.js';
import { MAIL_CLAIM_LEASE_MS, MAIL_MAX_ATTEMPTS } from '../src/mail/mail-policy.js';
import { createTestApp, type TestApp } from './helper.js';
import { dispatcherFor, MAIL_FROM, memoryLog, MINUTE, testClock } from './notify-support.js';
import { startSmtpReceiver, type SmtpReceiver } from './smtp-receiver.js';

let t: TestApp;
let smtp: SmtpReceiver;
const clock = testClock();
beforeAll(async () => {
  [t, smtp] = await Promise.all([createTestApp(), startSmtpReceiver()]);
});
afterAll(async () => {
  await smtp?.close();
  await t?.close();
});
beforeEach(async () => {
  await t.db.deleteFrom('mail_outbox').execute();
  smtp.mails.length = 0;
  clock.set('2026-12-01T00:00:00Z');
});

const queue = (
  to: string,
  subject = '件名テスト',
  body = '本文テスト\n二行目',
  kind: 'notification' | 'password_reset' = 'notification',
) => enqueueMail(t.db, { to, subject, body, kind }, clock.now());
const row = (id: number) => t.db.selectFrom('mail_outbox').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

/** A loopback port nothing listens on (yet). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return typeof address === 'object' && address ? address.port : 0;
}

describe('mail dispatcher', () => {
  let dispatchers: MailDispatcher[] = [];
  const make = (smtpUrl: string | null = smtp.url) => {
    const d = dispatcherFor(t.db, smtpUrl, clock.now);
    dispatchers.push(d);
    return d;
  };
  afterEach(async () => {
    await Promise.all(dispatchers.map((d) => d.stop()));
    dispatchers = [];
  });

  it('delivers a Japanese mail over SMTP and marks it sent', async () => {
    const id = await queue(
      'staff-a@example.jp',
      '【車両通知】センサーエラー：品川 300 あ 12-34',
      '本文です。\n地図：https://www.google.com/maps?q=35.681236,139.767125',
    );
    expect(await make().runOnce()).toEqual({ sent: 1, failed: 0 });

    expect(smtp.mails).toHaveLength(1);
    const [mail] = smtp.mails;
    expect(mail!.to).toEqual(['staff-a@example.jp']);
    expect(mail!.from).toBe('no-reply@fleet.example.jp');
    expect(mail!.subject).toBe('【車両通知】センサーエラー：品川 300 あ 12-34');
    expect(mail!.text).toBe('本文です。\n地図：https://www.google.com/maps?q=35.681236,139.767125');
    const r = await row(id);
    expect(r.sent_at).not.toBeNull();
    expect(r.attempts).toBe(1);
    expect(r.last_error).toBeNull();
  });

  it('sends each mail once: a second run and a restarted dispatcher over the same database send nothing', async () => {
    await queue('a@example.jp');
    await queue('b@example.jp');
    expect((await make().runOnce()).sent).toBe(2);
    expect((await make().runOnce()).sent).toBe(0);
    clock.advance(24 * 60 * MINUTE);
    const restarted = make();
    expect(await restarted.runOnce()).toEqual({ sent: 0, failed: 0 });
    expect(smtp.mails.map((m) => m.to[0]).sort()).toEqual(['a@example.jp', 'b@example.jp']);
  });

  it('sends each mail exactly once when several instances run at the same time', async () => {
    for (let i = 0; i < 12; i++) await queue(`parallel-${i}@example.jp`);
    const results = await Promise.all([make().runOnce(), make().runOnce(), make().runOnce()]);
    expect(results.reduce((n, r) => n + r.sent, 0)).toBe(12);
    const recipients = smtp.mails.map((m) => m.to[0]);
    expect(new Set(recipients).size).toBe(12);
    expect(recipients).toHaveLength(12);
  });

  it('keeps a mail while SMTP is down, retries with backoff, and delivers it exactly once when SMTP is back', async () => {
    const port = await freePort();
    const dispatcher = make(`smtp://127.0.0.1:${port}`);
    const id = await queue('later@example.jp', '再送テスト');

    expect(await dispatcher.runOnce()).toEqual({ sent: 0, failed: 1 });
    let r = await row(id);
    expect(r.sent_at).toBeNull();
    expect(r.attempts).toBe(1);
    expect(r.last_error).toMatch(/ECONNREFUSED|connect/i);
    expect(new Date(r.next_attempt_at).getTime()).toBe(clock.now().getTime() + retryDelayMs(1));

    const receiver = await startSmtpReceiver(port);
    try {
      // Not due yet: the backoff holds even though SMTP is up again.
      expect(await dispatcher.runOnce()).toEqual({ sent: 0, failed: 0 });
      clock.advance(retryDelayMs(1));
      expect(await dispatcher.runOnce()).toEqual({ sent: 1, failed: 0 });
      expect(await make(`smtp://127.0.0.1:${port}`).runOnce()).toEqual({ sent: 0, failed: 0 });
      expect(receiver.mails.map((m) => m.subject)).toEqual(['再送テスト']);
      r = await row(id);
      expect(r.sent_at).not.toBeNull();
      expect(r.attempts).toBe(2);
      expect(r.last_error).toBeNull();
    } finally {
      await receiver.close();
    }
  });

  it('doubles the wait after each failure, up to six hours, and gives up after the last attempt', async () => {
    expect([1, 2, 3, 4].map(retryDelayMs)).toEqual([1, 2, 4, 8].map((m) => m * MINUTE));
    expect(retryDelayMs(20)).toBe(6 * 60 * MINUTE);

    const failing = { sendMail: () => Promise.reject(new Error('451 一時的なエラー')) };
    const dispatcher = dispatcherFor(t.db, failing, clock.now);
    const id = await queue('never@example.jp');
    for (let attempt = 1; attempt <= MAIL_MAX_ATTEMPTS; attempt++) {
      expect(await dispatcher.runOnce()).toEqual({ sent: 0, failed: 1 });
      clock.advance(retryDelayMs(attempt));
    }
    expect(await dispatcher.runOnce()).toEqual({ sent: 0, failed: 0 });
    const r = await row(id);
    expect(r.attempts).toBe(MAIL_MAX_ATTEMPTS);
    expect(r.last_error).toBe('451 一時的なエラー');
    expect(r.sent_at).toBeNull();
  });

  it('retries a mail whose sender died after claiming it, once the claim lease runs out', async () => {
    const id = await queue('crash@example.jp');
    // A sender that claims the mail and never comes back.
    const hung = dispatcherFor(t.db, { sendMail: () => new Promise(() => undefined) }, clock.now);
    void hung.runOnce();
    await expect.poll(async () => (await row(id)).attempts).toBe(1);

    expect((await make().runOnce()).sent).toBe(0);
    clock.advance(MAIL_CLAIM_LEASE_MS);
    expect((await make().runOnce()).sent).toBe(1);
    expect(smtp.mails).toHaveLength(1);
  });

  it('without SMTP keeps every mail in the outbox and logs each one once', async () => {
    const { log, lines } = memoryLog();
    const dispatcher = new MailDispatcher({ db: t.db, transport: null, from: MAIL_FROM, log, clock: clock.now });
    const id = await queue('kept@example.jp', '保管テスト');
    await dispatcher.runOnce();
    await dispatcher.runOnce();
    const logged = lines.filter((l) => l.level === 'info');
    expect(logged).toHaveLength(1);
    expect(logged[0]!.obj).toMatchObject({ mailId: id, to: 'kept@example.jp', subject: '保管テスト' });
    expect((await row(id)).sent_at).toBeNull();

    // Configured later: the kept mail goes out.
    expect((await make().runOnce()).sent).toBe(1);
    expect(smtp.mails.map((m) => m.subject)).toEqual(['保管テスト']);
  });

  it('blanks the body of a sent password reset mail, so no reset link stays in the database', async () => {
    const id = await queue(
      'reset@example.jp',
      '再設定',
      'https://fleet.example.jp/password_reset?token=secret',
      'password_reset',
    );
    await make().runOnce();
    expect(smtp.mails[0]!.text).toContain('token=secret');
    expect((await row(id)).body).toBe(REDACTED_BODY);
  });
});
