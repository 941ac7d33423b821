import { randomBytes, scryptSync } from 'node:crypto';
import { accountMessages, login, passwordReset, sessionMessages } from '@fleet/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOGIN_LIMITS } from '../src/credentials/login-limit.js';
import { FIXTURE_PASSWORD, callAsFrom, createTestApp, seedFixtures, type TestApp } from './helper.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await seedFixtures(t.db);
});
afterAll(() => t?.close());

const attempt = (remoteAddress: string, password: string) =>
  callAsFrom(t.app, undefined, login, { username: 'admin-a', password }, { remoteAddress });

describe('login rate limit', () => {
  it('answers 429 in Japanese once one IP has failed too often, and spares other IPs', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 20; i++) statuses.push((await attempt('203.0.113.7', `wrong-${i}`)).status);

    const allowed = LOGIN_LIMITS.perIpPerMinute;
    expect(statuses.slice(0, allowed)).toEqual(Array(allowed).fill(401));
    expect(statuses.slice(allowed)).toEqual(Array(20 - allowed).fill(429));

    const limited = await attempt('203.0.113.7', FIXTURE_PASSWORD);
    expect(limited.status).toBe(429);
    expect(limited.raw.json()).toEqual({ code: 'TOO_MANY_REQUESTS', message: sessionMessages.tooManyAttempts });

    expect((await attempt('198.51.100.20', FIXTURE_PASSWORD)).status).toBe(200);
    // Eleven scrypt checks one after the other: minutes on a machine busy with other suites.
  }, 120_000);

  it('also holds against a burst of simultaneous guesses', async () => {
    const burst = await Promise.all(Array.from({ length: 30 }, (_, i) => attempt('203.0.113.8', `burst-${i}`)));
    const statuses = burst.map((r) => r.status);
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(LOGIN_LIMITS.perIpPerMinute);
    expect(statuses.filter((s) => s !== 401 && s !== 429)).toEqual([]);
  });
});

/** A hash at N=2^10: the server verifies with the stored cost, so a hundred checks take milliseconds. */
function cheapHash(password: string) {
  const salt = randomBytes(16);
  const key = scryptSync(password.normalize('NFKC'), salt, 64, { N: 1024, r: 8, p: 1 });
  return ['scrypt', 10, 8, 1, salt.toString('base64'), key.toString('base64')].join('$');
}
const CHEAP_PASSWORD = 'cheap-pass-2026';
async function cheapAccount(id: string) {
  await t.db
    .insertInto('accounts')
    .values({
      account_id: id,
      name: '制限 五郎',
      email: `${id.toUpperCase()}@Example.jp`,
      role: 2,
      company_id: 'company-a',
      password_hash: cheapHash(CHEAP_PASSWORD),
    })
    .execute();
}
const signIn = (remoteAddress: string, username: string, password: string) =>
  callAsFrom(t.app, undefined, login, { username, password }, { remoteAddress });

describe('limits keyed on the account, whatever name reached it', () => {
  it('locks sign-in by e-mail (any case) and by id once the account id has failed too often', async () => {
    await cheapAccount('limit-id');
    // Spread over the hour (rows moved back), so only the hourly failure limit is reached.
    for (let i = 0; i < LOGIN_LIMITS.perUserPerHour; i++) {
      expect((await signIn(`10.1.${i >> 8}.${i & 255}`, 'limit-id', `wrong-${i}`)).status).toBe(401);
      await t.db
        .updateTable('login_attempts')
        .set({ at: sql`now() - interval '30 minutes'` })
        .execute();
    }
    const byEmail = await signIn('10.9.0.1', 'limit-id@example.jp', CHEAP_PASSWORD);
    expect(byEmail.status).toBe(429);
    expect(byEmail.raw.json()).toEqual({ code: 'TOO_MANY_REQUESTS', message: sessionMessages.tooManyAttempts });
    expect((await signIn('10.9.0.2', 'LIMIT-ID@EXAMPLE.JP', CHEAP_PASSWORD)).status).toBe(429);
    expect((await signIn('10.9.0.3', 'limit-id', CHEAP_PASSWORD)).status).toBe(429);
  });

  it('counts successful sign-ins too: an account is checked at most so often a minute', async () => {
    await cheapAccount('limit-ok');
    // Two real sign-ins, by id and by e-mail, are counted as checks of one account...
    for (const [i, name] of ['limit-ok', 'limit-ok@example.jp'].entries()) {
      expect((await signIn(`10.2.0.${i}`, name, CHEAP_PASSWORD)).status).toBe(200);
      // A sign-in re-hashes at full cost; put the cheap hash back so the test stays quick.
      await t.db
        .updateTable('accounts')
        .set({ password_hash: cheapHash(CHEAP_PASSWORD) })
        .where('account_id', '=', 'limit-ok')
        .execute();
    }
    const counted = await t.db
      .selectFrom('login_attempts')
      .select(['username', 'succeeded'])
      .where('username', '=', 'limit-ok')
      .execute();
    expect(counted).toEqual([
      { username: 'limit-ok', succeeded: true },
      { username: 'limit-ok', succeeded: true },
    ]);
    // ...and once the minute holds as many as allowed (the rest written directly: the window is a
    // minute of real time, which a loaded machine's scrypt would not keep), the next right password is refused.
    const rest = LOGIN_LIMITS.checksPerAccountPerMinute - counted.length;
    await t.db
      .insertInto('login_attempts')
      .values(Array.from({ length: rest }, (_, i) => ({ ip: `10.2.2.${i}`, username: 'limit-ok', succeeded: true })))
      .execute();
    const over = await signIn('10.2.1.1', 'limit-ok', CHEAP_PASSWORD);
    expect(over.status).toBe(429);
    expect(over.error.message).toBe(sessionMessages.tooManyAttempts);
  });

  it("limits the password change's current_password like a sign-in: 429 in Japanese, shared with sign-in", async () => {
    await cheapAccount('limit-pw');
    const token = (await signIn('10.3.0.1', 'limit-pw', CHEAP_PASSWORD)).body.token;
    await t.db
      .updateTable('accounts')
      .set({ password_hash: cheapHash(CHEAP_PASSWORD) })
      .where('account_id', '=', 'limit-pw')
      .execute();
    const change = (current_password: string, remoteAddress = '10.3.0.2') =>
      callAsFrom(
        t.app,
        token,
        passwordReset,
        { info: { current_password, password: 'changed-pass-1', password_confirm: 'changed-pass-1' } },
        { remoteAddress },
      );
    for (let i = 0; i < LOGIN_LIMITS.perIpPerMinute; i++) expect((await change(`wrong-${i}`)).status).toBe(400);
    const limited = await change(CHEAP_PASSWORD);
    expect(limited.status).toBe(429);
    expect(limited.raw.json()).toEqual({ code: 'TOO_MANY_REQUESTS', message: accountMessages.tooManyPasswordAttempts });
    // The same address cannot go on guessing through the sign-in either.
    expect((await signIn('10.3.0.2', 'limit-pw', CHEAP_PASSWORD)).status).toBe(429);
    expect((await change(CHEAP_PASSWORD, '10.3.0.3')).status).toBe(200);
  });
});
