import {
  accountUpdate,
  errorMessages,
  login as loginCall,
  me as meCall,
  passwordReset,
  passwordResetByToken,
  passwordResetMessages as msg,
  resetPasswordEmail,
  validationMessages as m,
} from '@fleet/contract';
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import { REDACTED_BODY } from '../src/mail/outbox.repository.js';
import { RESET_LIMITS } from '../src/password-reset/password-reset.repository.js';
import {
  accounts,
  callAs,
  callAsFrom,
  createTestApp,
  FIXTURE_PASSWORD,
  login,
  seedFixtures,
  type TestApp,
} from './helper.js';
import { dispatcherFor } from './notify-support.js';
import { startSmtpReceiver, type ReceivedMail, type SmtpReceiver } from './smtp-receiver.js';

let t: TestApp;
let smtp: SmtpReceiver;
beforeAll(async () => {
  [t, smtp] = await Promise.all([createTestApp(), startSmtpReceiver()]);
  await seedFixtures(t.db);
});
afterAll(async () => {
  await smtp?.close();
  await t?.close();
});
beforeEach(async () => {
  await t.db.deleteFrom('password_reset_requests').execute();
  await t.db.deleteFrom('mail_outbox').execute();
  smtp.mails.length = 0;
});

const NEW_PASSWORD = 'new-secret-2026';
const requestReset = (email: string, ip = '127.0.0.1') =>
  callAsFrom(t.app, undefined, resetPasswordEmail, { email }, { remoteAddress: ip });
const setPassword = (token: string, password = NEW_PASSWORD, password_confirm = password) =>
  callAs(t.app, undefined, passwordResetByToken, { token, password, password_confirm });

async function deliver(): Promise<ReceivedMail[]> {
  const d = dispatcherFor(t.db, smtp.url, () => new Date());
  await d.runOnce();
  await d.stop();
  return smtp.mails;
}
const tokenOf = (mail: ReceivedMail) => {
  const link = /https?:\/\/\S+\/password_reset\?token=(\S+)/.exec(mail.text);
  expect(link, mail.text).not.toBeNull();
  return decodeURIComponent(link![1]!);
};

/** Requests a reset for the account and returns the token from the mail that arrives. */
async function tokenFor(email: string): Promise<string> {
  expect((await requestReset(email)).status).toBe(200);
  const mails = await deliver();
  return tokenOf(mails.at(-1)!);
}

describe('password reset by mail', () => {
  it('mails a one-time link; the new password works, the old one and every session end', async () => {
    const who = accounts.managerA;
    const oldSession = await login(t.app, 'managerA');

    const res = await requestReset(who.email.toUpperCase());
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true });
    const [mail] = await deliver();
    expect(mail!.to).toEqual([who.email]);
    expect(mail!.subject).toBe('【フリートコンソール】パスワード再設定のご案内');
    expect(mail!.text).toContain(`${who.name} 様`);
    expect(mail!.text).toMatch(/有効期限：\d{4}\/\d{2}\/\d{2} \d{2}:\d{2}（日本時間、お申し込みから30分間）/);
    const token = tokenOf(mail!);
    expect(mail!.text).toContain(`http://localhost:3000/password_reset?token=${token}`);

    // Only the hash is stored, and the sent mail no longer holds the link.
    const stored = await t.db
      .selectFrom('password_reset_tokens')
      .select('token_hash')
      .where('account_id', '=', who.account_id)
      .execute();
    expect(stored.map((r) => r.token_hash)).not.toContain(token);
    expect(stored[0]!.token_hash).toMatch(/^[0-9a-f]{64}$/);
    const outbox = await t.db
      .selectFrom('mail_outbox')
      .select('body')
      .where('kind', '=', 'password_reset')
      .executeTakeFirstOrThrow();
    expect(outbox.body).toBe(REDACTED_BODY);

    const done = await setPassword(token);
    expect(done.status, done.raw.body).toBe(200);
    expect(done.body).toEqual({ ok: true });

    await login(t.app, who.account_id, NEW_PASSWORD);
    expect(
      (await callAs(t.app, undefined, loginCall, { username: who.account_id, password: FIXTURE_PASSWORD })).status,
    ).toBe(401);
    expect((await callAs(t.app, oldSession, meCall, {})).status).toBe(401);

    // The account is told its password changed.
    const notices = (await deliver()).filter((x) => x.subject === '【フリートコンソール】パスワードを変更しました');
    expect(notices.map((x) => x.to)).toEqual([[who.email]]);
  });

  it('refuses a link that was already used, with a clear message', async () => {
    const token = await tokenFor(accounts.staffA.email);
    expect((await setPassword(token)).status).toBe(200);
    const again = await setPassword(token, 'another-pass-99');
    expect(again.status).toBe(400);
    expect(again.raw.json()).toEqual({ code: 'BAD_REQUEST', message: msg.tokenUsed, errors: { token: msg.tokenUsed } });
    await login(t.app, accounts.staffA.account_id, NEW_PASSWORD);
  });

  it('refuses an expired link', async () => {
    const token = await tokenFor(accounts.adminA.email);
    await t.db
      .updateTable('password_reset_tokens')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('account_id', '=', accounts.adminA.account_id)
      .execute();
    const res = await setPassword(token);
    expect(res.status).toBe(400);
    expect(res.raw.json()).toEqual({
      code: 'BAD_REQUEST',
      message: msg.tokenExpired,
      errors: { token: msg.tokenExpired },
    });
    await login(t.app, 'adminA');
  });

  it('refuses an unknown link', async () => {
    const res = await setPassword('no-such-token');
    expect(res.status).toBe(400);
    expect(res.error.message).toBe(msg.tokenInvalid);
  });

  it('retires every other link of the account once a password is set', async () => {
    const first = await tokenFor(accounts.adminB.email);
    const second = await tokenFor(accounts.adminB.email);
    expect(first).not.toBe(second);
    expect((await setPassword(second)).status).toBe(200);
    expect((await setPassword(first)).error.message).toBe(msg.tokenUsed);
  });

  it('checks the new password: 8 to 32 characters, and the confirmation must match', async () => {
    const token = await tokenFor(accounts.superAdmin.email);
    const mismatch = await setPassword(token, NEW_PASSWORD, `${NEW_PASSWORD}x`);
    expect(mismatch.status).toBe(400);
    expect(mismatch.raw.json()).toEqual({
      code: 'BAD_REQUEST',
      message: errorMessages.badRequest,
      errors: { password_confirm: m.confirmed },
    });
    expect((await setPassword(token, 'short')).error.errors).toEqual({ password: m.min });
    expect((await setPassword(token, 'x'.repeat(33))).error.errors).toEqual({ password: m.max });
    // None of that used the link up.
    expect((await setPassword(token)).status).toBe(200);
  });

  it('answers an unknown address exactly as a known one, and sends nothing', async () => {
    const unknown = await requestReset('nobody@example.jp');
    const known = await requestReset(accounts.staffA.email);
    expect(unknown.status).toBe(known.status);
    expect(unknown.raw.body).toBe(known.raw.body);
    expect((await deliver()).map((x) => x.to)).toEqual([[accounts.staffA.email]]);
  });

  it('answers an invalid address with the Japanese validation message', async () => {
    const res = await requestReset('not-an-address');
    expect(res.status).toBe(400);
    expect(res.error.errors).toEqual({ email: m.email });
  });

  it('limits mails per address without changing the answer, and requests per IP with 429', async () => {
    for (let i = 0; i < RESET_LIMITS.mailsPerEmailPerHour + 2; i++) {
      const res = await requestReset(accounts.staffA.email, `10.0.0.${i + 1}`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ ok: true });
    }
    expect(await deliver()).toHaveLength(RESET_LIMITS.mailsPerEmailPerHour);

    const ip = '192.0.2.77';
    for (let i = 0; i < RESET_LIMITS.requestsPerIpPerHour; i++)
      expect((await requestReset(`someone${i}@example.jp`, ip)).status).toBe(200);
    const limited = await requestReset('someone-else@example.jp', ip);
    expect(limited.status).toBe(429);
    expect(limited.raw.json()).toEqual({ code: 'TOO_MANY_REQUESTS', message: msg.tooMany });
    expect((await requestReset('someone-else@example.jp', '192.0.2.78')).status).toBe(200);
  });

  it('sends at most the limit of mails to one address for simultaneous requests (a lock per address)', async () => {
    const burst = await Promise.all(
      Array.from({ length: 19 }, (_, i) => requestReset(accounts.adminA.email, `10.4.0.${i + 1}`)),
    );
    expect(burst.map((r) => r.status)).toEqual(Array(19).fill(200));
    expect(await deliver()).toHaveLength(RESET_LIMITS.mailsPerEmailPerHour);
    const ip = '10.5.0.1';
    const fromOne = await Promise.all(Array.from({ length: 30 }, (_, i) => requestReset(`burst${i}@example.jp`, ip)));
    expect(fromOne.filter((r) => r.status === 200)).toHaveLength(RESET_LIMITS.requestsPerIpPerHour);
  });

  it('sends no link for a deleted account', async () => {
    await t.db
      .updateTable('accounts')
      .set({ is_delete: true })
      .where('account_id', '=', accounts.managerA.account_id)
      .execute();
    try {
      expect((await requestReset(accounts.managerA.email)).body).toEqual({ ok: true });
      expect(await deliver()).toEqual([]);
    } finally {
      await t.db
        .updateTable('accounts')
        .set({ is_delete: false })
        .where('account_id', '=', accounts.managerA.account_id)
        .execute();
    }
  });
});

describe('a password change by any way ends the reset links and the other sessions', () => {
  const other = { name: '変更 四郎', role: 1, company_id: 'company-a', engine_control: false };
  /** account_update of account `id` with a new password, by the holder of `token`. */
  const editWithPassword = (token: string, id: string) =>
    callAs(t.app, token, accountUpdate, {
      info: {
        account_id: id,
        ...other,
        email: `${id}@example.jp`,
        password: NEW_PASSWORD,
        password_confirm: NEW_PASSWORD,
      },
    });
  const change = {
    'own password change (password_reset)': (self: string, admin: string, id: string) =>
      callAs(t.app, self, passwordReset, {
        info: { current_password: FIXTURE_PASSWORD, password: NEW_PASSWORD, password_confirm: NEW_PASSWORD },
      }).then((r) => ({ r, kept: self, id })),
    "an admin's change (password_reset with account_id)": (_self: string, admin: string, id: string) =>
      callAs(t.app, admin, passwordReset, {
        info: { account_id: id, password: NEW_PASSWORD, password_confirm: NEW_PASSWORD },
      }).then((r) => ({ r, kept: null, id })),
    'own account edit with a password (account_update)': (self: string, _admin: string, id: string) =>
      editWithPassword(self, id).then((r) => ({ r, kept: self, id })),
    "an admin's account edit with a password (account_update)": (_self: string, admin: string, id: string) =>
      editWithPassword(admin, id).then((r) => ({ r, kept: null, id })),
  };

  it.each(Object.entries(change))('%s', async (way, act) => {
    const id = `pw-${Object.keys(change).indexOf(way)}`;
    await t.db
      .insertInto('accounts')
      .values({ account_id: id, email: `${id}@example.jp`, password_hash: inject('fixturePasswordHash'), ...other })
      .execute();
    const link = await tokenFor(`${id}@example.jp`);
    const [self, second, admin] = await Promise.all([login(t.app, id), login(t.app, id), login(t.app, 'adminA')]);

    const { r, kept } = await act(self, admin, id);
    expect(r.status, r.raw.body).toBe(200);

    const refused = await setPassword(link, 'via-old-link-1');
    expect(refused.status).toBe(400);
    expect(refused.error.message).toBe(msg.tokenUsed);
    await login(t.app, id, NEW_PASSWORD);
    expect((await callAs(t.app, second, meCall, {})).status).toBe(401);
    expect((await callAs(t.app, self, meCall, {})).status).toBe(kept ? 200 : 401);
  });
});
