import { TOTP_ISSUER, engineMessages, totpMessages, validationMessages } from '@fleet/contract';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { FIXTURE_PASSWORD, createTestApp, login, post, seedFixtures, type TestApp } from './helper.js';

/**
 * 二段階認証 (TOTP, RFC 6238) from setup to disable, through the real app. The test's clock (Date
 * only) is moved a 30-second step at a time, so every code belongs to a known step: the server
 * accepts a code of the current step or one either side, and each step once per account.
 */
let t: TestApp;
const STEP = 30_000;
let now = 0;
const moveToNextStep = () => vi.setSystemTime((now += STEP));

beforeAll(async () => {
  t = await createTestApp();
  await seedFixtures(t.db);
  // One second into a step, so a code computed for "now" is the current step's.
  now = Math.floor(Date.now() / STEP) * STEP + 1000;
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(now);
});
// Every call here comes from one address: its failed tries would reach the per-address limit
// (10 a minute), which is not what this file tests.
beforeEach(() => t.db.deleteFrom('login_attempts').execute());
afterAll(async () => {
  vi.useRealTimers();
  await t?.close();
});

const codeOf = (secret: string, offsetSteps = 0) =>
  new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' }).generate({
    timestamp: now + offsetSteps * STEP,
  });
/** A six-digit code that is none of the secret's codes around now. */
const wrongCodeOf = (secret: string) => {
  const near = new Set([-1, 0, 1].map((d) => codeOf(secret, d)));
  for (let n = 0; ; n++) {
    const code = String(n).padStart(6, '0');
    if (!near.has(code)) return code;
  }
};

const secrets: Record<string, string> = {};
/** Sets TOTP up and enables it for a signed-in account; remembers and returns its secret. */
async function enableTotp(accountId: string, token: string) {
  const setup = await post(t.app, '/api/totp_setup', {}, token);
  expect(setup.statusCode, setup.body).toBe(200);
  const { secret } = setup.json<{ secret: string }>();
  const enable = await post(t.app, '/api/totp_enable', { otp: codeOf(secret) }, token);
  expect(enable.statusCode, enable.body).toBe(200);
  secrets[accountId] = secret;
  return secret;
}
const failedAttempts = async () =>
  Number(
    (
      await t.db
        .selectFrom('login_attempts')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('succeeded', '=', false)
        .executeTakeFirstOrThrow()
    ).n,
  );
const auditRows = (action: string, target: string) =>
  t.db
    .selectFrom('audit_log')
    .select(['account_id', 'detail'])
    .where('action', '=', action)
    .where('target_id', '=', target)
    .execute();

describe('TOTP sign-in', () => {
  let secret = '';
  let token = '';

  it('setup answers a secret and an otpauth URL; enable refuses a wrong code and takes a right one', async () => {
    token = await login(t.app, 'managerA');
    const status = await post(t.app, '/api/totp_status', {}, token);
    expect(status.json()).toEqual({ enabled: false, required: false });

    const setup = await post(t.app, '/api/totp_setup', {}, token);
    expect(setup.statusCode).toBe(200);
    const body = setup.json<{ secret: string; otpauth_url: string }>();
    secret = body.secret;
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    const url = new URL(body.otpauth_url);
    expect(url.protocol).toBe('otpauth:');
    expect(url.searchParams.get('secret')).toBe(secret);
    expect(url.searchParams.get('issuer')).toBe(TOTP_ISSUER);
    expect(url.searchParams.get('digits')).toBe('6');

    const wrong = await post(t.app, '/api/totp_enable', { otp: wrongCodeOf(secret) }, token);
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({ code: 'BAD_REQUEST', errors: { otp: totpMessages.otpWrong } });

    const right = await post(t.app, '/api/totp_enable', { otp: codeOf(secret) }, token);
    expect(right.statusCode, right.body).toBe(200);
    expect((await post(t.app, '/api/totp_status', {}, token)).json()).toEqual({ enabled: true, required: false });
    expect(await auditRows('account.totp_enable', 'manager-a')).toEqual([{ account_id: 'manager-a', detail: {} }]);
  });

  it('never answers the secret again once enabled: a new setup is refused', async () => {
    const again = await post(t.app, '/api/totp_setup', {}, token);
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(totpMessages.alreadyEnabled);
    expect(again.body).not.toContain(secret);
    expect((await post(t.app, '/api/me', {}, token)).body).not.toContain(secret);
  });

  it('login with the right password and no code answers 401 OTP_REQUIRED and creates no session', async () => {
    const res = await post(t.app, '/api/login', { username: 'manager-a', password: FIXTURE_PASSWORD });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ code: 'OTP_REQUIRED', message: totpMessages.otpRequired });
    expect(res.json().token).toBeUndefined();
  });

  it('a wrong password still answers the plain refusal, not OTP_REQUIRED', async () => {
    const res = await post(t.app, '/api/login', {
      username: 'manager-a',
      password: 'wrong-password',
      otp: codeOf(secret),
    });
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe('UNAUTHORIZED');
    expect(res.json().errors).toBeUndefined();
  });

  it('a wrong code is a 401 with a field error and counts as a failed sign-in', async () => {
    moveToNextStep();
    const before = await failedAttempts();
    const res = await post(t.app, '/api/login', {
      username: 'manager-a',
      password: FIXTURE_PASSWORD,
      otp: wrongCodeOf(secret),
    });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ code: 'UNAUTHORIZED', errors: { otp: totpMessages.otpWrong } });
    expect(await failedAttempts()).toBe(before + 1);
  });

  it('the right code signs in; the same code (same time step) a second time is refused', async () => {
    const code = codeOf(secret);
    const ok = await post(t.app, '/api/login', { username: 'manager-a', password: FIXTURE_PASSWORD, otp: code });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().id).toBe('manager-a');
    const replay = await post(t.app, '/api/login', { username: 'manager-a', password: FIXTURE_PASSWORD, otp: code });
    expect(replay.statusCode).toBe(401);
    expect(replay.json().errors).toEqual({ otp: totpMessages.otpWrong });
    // An older step's code is refused too once a later one was used.
    const older = await post(t.app, '/api/login', {
      username: 'manager-a',
      password: FIXTURE_PASSWORD,
      otp: codeOf(secret, -1),
    });
    expect(older.statusCode).toBe(401);
  });

  it('two simultaneous sign-ins with one code: exactly one succeeds', async () => {
    moveToNextStep();
    const code = codeOf(secret);
    const both = await Promise.all(
      [0, 1].map(() => post(t.app, '/api/login', { username: 'manager-a', password: FIXTURE_PASSWORD, otp: code })),
    );
    expect(both.map((r) => r.statusCode).sort()).toEqual([200, 401]);
  });

  it('the step-up needs the code too', async () => {
    moveToNextStep();
    const missing = await post(t.app, '/api/step_up', { password: FIXTURE_PASSWORD }, token);
    expect(missing.statusCode).toBe(401);
    expect(missing.json().code).toBe('OTP_REQUIRED');
    const wrongPassword = await post(t.app, '/api/step_up', { password: 'wrong-password', otp: codeOf(secret) }, token);
    expect(wrongPassword.json().errors).toEqual({ password: engineMessages.stepUpFailed });
    const wrong = await post(t.app, '/api/step_up', { password: FIXTURE_PASSWORD, otp: wrongCodeOf(secret) }, token);
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().errors).toEqual({ otp: totpMessages.otpWrong });
    const ok = await post(t.app, '/api/step_up', { password: FIXTURE_PASSWORD, otp: codeOf(secret) }, token);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().stepped_up_until).toEqual(expect.any(String));
  });

  it('validation errors are in Japanese', async () => {
    const enable = await post(t.app, '/api/totp_enable', { otp: '12ab' }, token);
    expect(enable.statusCode).toBe(400);
    expect(enable.json().errors).toEqual({ otp: totpMessages.otpFormat });
    const empty = await post(t.app, '/api/totp_disable', {}, token);
    expect(empty.json().errors).toEqual({ password: validationMessages.required, otp: validationMessages.required });
    const loginBad = await post(t.app, '/api/login', {
      username: 'manager-a',
      password: FIXTURE_PASSWORD,
      otp: '1234567',
    });
    expect(loginBad.statusCode).toBe(400);
    expect(loginBad.json().errors).toEqual({ otp: totpMessages.otpFormat });
  });

  it("nobody can disable another account's TOTP: the calls act on the caller's own account only", async () => {
    const staff = await login(t.app, 'staffA');
    moveToNextStep();
    const res = await post(
      t.app,
      '/api/totp_disable',
      { account_id: 'manager-a', password: FIXTURE_PASSWORD, otp: codeOf(secret) },
      staff,
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(totpMessages.notEnabled);
    expect((await post(t.app, '/api/totp_status', {}, token)).json().enabled).toBe(true);
    expect(await auditRows('account.totp_disable', 'manager-a')).toEqual([]);
  });

  it('disable needs the password and a code; then the account signs in without a code', async () => {
    moveToNextStep();
    const wrongPassword = await post(
      t.app,
      '/api/totp_disable',
      { password: 'wrong-password', otp: codeOf(secret) },
      token,
    );
    expect(wrongPassword.statusCode).toBe(401);
    expect(wrongPassword.json().errors).toEqual({ password: totpMessages.passwordWrong });
    const wrongCode = await post(
      t.app,
      '/api/totp_disable',
      { password: FIXTURE_PASSWORD, otp: wrongCodeOf(secret) },
      token,
    );
    expect(wrongCode.statusCode).toBe(401);
    expect(wrongCode.json().errors).toEqual({ otp: totpMessages.otpWrong });
    const ok = await post(t.app, '/api/totp_disable', { password: FIXTURE_PASSWORD, otp: codeOf(secret) }, token);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(await auditRows('account.totp_disable', 'manager-a')).toEqual([{ account_id: 'manager-a', detail: {} }]);
    expect((await post(t.app, '/api/totp_status', {}, token)).json().enabled).toBe(false);
    await login(t.app, 'managerA');
  });
});

describe('a company that requires TOTP', () => {
  it('only its company admin (with TOTP on) and the super admin may require it', async () => {
    const admin = await login(t.app, 'adminA');
    const first = await post(
      t.app,
      '/api/company_totp_policy_update',
      { company_id: 'company-a', require_totp: true },
      admin,
    );
    expect(first.statusCode).toBe(400);
    expect(first.json().message).toBe(totpMessages.ownTotpFirst);

    const manager = await login(t.app, 'managerA');
    expect(
      (await post(t.app, '/api/company_totp_policy_update', { company_id: 'company-a', require_totp: true }, manager))
        .statusCode,
    ).toBe(403);
    const other = await login(t.app, 'adminB');
    expect((await post(t.app, '/api/company_totp_policy', { company_id: 'company-a' }, other)).statusCode).toBe(404);
    expect(
      (await post(t.app, '/api/company_totp_policy_update', { company_id: 'company-a', require_totp: true }, other))
        .statusCode,
    ).toBe(404);

    moveToNextStep();
    await enableTotp('admin-a', admin);
    const on = await post(
      t.app,
      '/api/company_totp_policy_update',
      { company_id: 'company-a', require_totp: true },
      admin,
    );
    expect(on.statusCode, on.body).toBe(200);
    expect((await post(t.app, '/api/company_totp_policy', { company_id: 'company-a' }, admin)).json()).toEqual({
      company_id: 'company-a',
      require_totp: true,
    });
    expect(await auditRows('company.totp_policy', 'company-a')).toEqual([
      { account_id: 'admin-a', detail: { require_totp: true } },
    ]);
    const sup = await login(t.app, 'superAdmin');
    expect((await post(t.app, '/api/company_totp_policy', { company_id: 'company-b' }, sup)).json()).toEqual({
      company_id: 'company-b',
      require_totp: false,
    });
  });

  it('an account of it without TOTP signs in to a session that can only set TOTP up; after that, everything opens', async () => {
    const staff = await login(t.app, 'staffA');
    const blocked = await post(t.app, '/api/car_list', {}, staff);
    expect(blocked.statusCode).toBe(403);
    expect(blocked.json()).toMatchObject({ code: 'TOTP_SETUP_REQUIRED', message: totpMessages.setupRequired });
    expect((await post(t.app, '/api/me', {}, staff)).statusCode).toBe(200);
    expect((await post(t.app, '/api/totp_status', {}, staff)).json()).toEqual({ enabled: false, required: true });

    moveToNextStep();
    const secret = await enableTotp('staff-a', staff);
    expect((await post(t.app, '/api/car_list', {}, staff)).statusCode).toBe(200);

    moveToNextStep();
    const off = await post(t.app, '/api/totp_disable', { password: FIXTURE_PASSWORD, otp: codeOf(secret) }, staff);
    expect(off.statusCode).toBe(403);
    expect(off.json().message).toBe(totpMessages.requiredByCompany);
  });

  it('another company is not affected', async () => {
    const other = await login(t.app, 'adminB');
    expect((await post(t.app, '/api/car_list', {}, other)).statusCode).toBe(200);
  });
});
