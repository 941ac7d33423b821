import {
  RECOVERY_CODE_COUNT,
  STEP_UP_MINUTES,
  TOTP_ISSUER,
  carList,
  companyTotpPolicy,
  companyTotpPolicyUpdate,
  engineMessages,
  login as loginCall,
  me as meCall,
  stepUp,
  totpDisable,
  totpEnable,
  totpMessages,
  totpRecoveryCodes,
  totpSetup,
  totpStatus,
  validationMessages,
} from '@fleet/contract';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { reserveEngineCall } from './engine-support.js';
import {
  FIXTURE_PASSWORD,
  callAs,
  createTestApp,
  fleet,
  login,
  seedFixtures,
  unchecked,
  type TestApp,
} from './helper.js';

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
  const setup = await callAs(t.app, token, totpSetup, {});
  expect(setup.status, setup.raw.body).toBe(200);
  const { secret } = setup.body;
  const enable = await callAs(t.app, token, totpEnable, { otp: codeOf(secret) });
  expect(enable.status, enable.raw.body).toBe(200);
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
    const status = await callAs(t.app, token, totpStatus, {});
    expect(status.body).toEqual({ enabled: false, required: false, recovery_codes_left: 0 });

    const setup = await callAs(t.app, token, totpSetup, {});
    expect(setup.status).toBe(200);
    const body = setup.body;
    secret = body.secret;
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    const url = new URL(body.otpauth_url);
    expect(url.protocol).toBe('otpauth:');
    expect(url.searchParams.get('secret')).toBe(secret);
    expect(url.searchParams.get('issuer')).toBe(TOTP_ISSUER);
    expect(url.searchParams.get('digits')).toBe('6');

    const wrong = await callAs(t.app, token, totpEnable, { otp: wrongCodeOf(secret) });
    expect(wrong.status).toBe(400);
    expect(wrong.error).toMatchObject({ code: 'BAD_REQUEST', errors: { otp: totpMessages.otpWrong } });

    const right = await callAs(t.app, token, totpEnable, { otp: codeOf(secret) });
    expect(right.status, right.raw.body).toBe(200);
    expect((await callAs(t.app, token, totpStatus, {})).body).toEqual({
      enabled: true,
      required: false,
      recovery_codes_left: RECOVERY_CODE_COUNT,
    });
    expect(await auditRows('account.totp_enable', 'manager-a')).toEqual([{ account_id: 'manager-a', detail: {} }]);
  });

  it('never answers the secret again once enabled: a new setup is refused', async () => {
    const again = await callAs(t.app, token, totpSetup, {});
    expect(again.status).toBe(409);
    expect(again.error.message).toBe(totpMessages.alreadyEnabled);
    expect(again.raw.body).not.toContain(secret);
    expect((await callAs(t.app, token, meCall, {})).raw.body).not.toContain(secret);
  });

  it('login with the right password and no code answers 401 OTP_REQUIRED and creates no session', async () => {
    const res = await callAs(t.app, undefined, loginCall, { username: 'manager-a', password: FIXTURE_PASSWORD });
    expect(res.status).toBe(401);
    expect(res.error).toMatchObject({ code: 'OTP_REQUIRED', message: totpMessages.otpRequired });
    expect(res.raw.json().token).toBeUndefined();
  });

  it('a wrong password still answers the plain refusal, not OTP_REQUIRED', async () => {
    const res = await callAs(t.app, undefined, loginCall, {
      username: 'manager-a',
      password: 'wrong-password',
      otp: codeOf(secret),
    });
    expect(res.status).toBe(401);
    expect(res.error.code).toBe('UNAUTHORIZED');
    expect(res.error.errors).toBeUndefined();
  });

  it('a wrong code is a 401 with a field error and counts as a failed sign-in', async () => {
    moveToNextStep();
    const before = await failedAttempts();
    const res = await callAs(t.app, undefined, loginCall, {
      username: 'manager-a',
      password: FIXTURE_PASSWORD,
      otp: wrongCodeOf(secret),
    });
    expect(res.status).toBe(401);
    expect(res.error).toMatchObject({ code: 'UNAUTHORIZED', errors: { otp: totpMessages.otpWrong } });
    expect(await failedAttempts()).toBe(before + 1);
  });

  it('the right code signs in; the same code (same time step) a second time is refused', async () => {
    const code = codeOf(secret);
    const ok = await callAs(t.app, undefined, loginCall, {
      username: 'manager-a',
      password: FIXTURE_PASSWORD,
      otp: code,
    });
    expect(ok.status, ok.raw.body).toBe(200);
    expect(ok.body.id).toBe('manager-a');
    const replay = await callAs(t.app, undefined, loginCall, {
      username: 'manager-a',
      password: FIXTURE_PASSWORD,
      otp: code,
    });
    expect(replay.status).toBe(401);
    // Said so, with what to do: wait for the app's next code.
    expect(replay.error).toMatchObject({ message: totpMessages.otpUsed, errors: { otp: totpMessages.otpUsed } });
    // An older step's code is refused too once a later one was used.
    const older = await callAs(t.app, undefined, loginCall, {
      username: 'manager-a',
      password: FIXTURE_PASSWORD,
      otp: codeOf(secret, -1),
    });
    expect(older.status).toBe(401);
  });

  it('two simultaneous sign-ins with one code: exactly one succeeds', async () => {
    moveToNextStep();
    const code = codeOf(secret);
    const both = await Promise.all(
      [0, 1].map(() =>
        callAs(t.app, undefined, loginCall, { username: 'manager-a', password: FIXTURE_PASSWORD, otp: code }),
      ),
    );
    expect(both.map((r) => r.status).sort()).toEqual([200, 401]);
  });

  it('the step-up needs the code too', async () => {
    moveToNextStep();
    const missing = await callAs(t.app, token, stepUp, { password: FIXTURE_PASSWORD });
    expect(missing.status).toBe(401);
    expect(missing.error.code).toBe('OTP_REQUIRED');
    const wrongPassword = await callAs(t.app, token, stepUp, { password: 'wrong-password', otp: codeOf(secret) });
    expect(wrongPassword.error.errors).toEqual({ password: engineMessages.stepUpFailed });
    const wrong = await callAs(t.app, token, stepUp, { password: FIXTURE_PASSWORD, otp: wrongCodeOf(secret) });
    expect(wrong.status).toBe(401);
    expect(wrong.error.errors).toEqual({ otp: totpMessages.otpWrong });
    const ok = await callAs(t.app, token, stepUp, { password: FIXTURE_PASSWORD, otp: codeOf(secret) });
    expect(ok.status, ok.raw.body).toBe(200);
    expect(ok.body.stepped_up_until).toEqual(expect.any(String));
  });

  it('validation errors are in Japanese', async () => {
    const enable = await callAs(t.app, token, totpEnable, { otp: '12ab' });
    expect(enable.status).toBe(400);
    expect(enable.error.errors).toEqual({ otp: totpMessages.otpFormat });
    const empty = await callAs(t.app, token, totpDisable, unchecked({}));
    expect(empty.error.errors).toEqual({ password: validationMessages.required, otp: validationMessages.required });
    const loginBad = await callAs(t.app, undefined, loginCall, {
      username: 'manager-a',
      password: FIXTURE_PASSWORD,
      otp: '1234567',
    });
    expect(loginBad.status).toBe(400);
    expect(loginBad.error.errors).toEqual({ otp: totpMessages.otpFormat });
  });

  it("nobody can disable another account's TOTP: the calls act on the caller's own account only", async () => {
    const staff = await login(t.app, 'staffA');
    moveToNextStep();
    const res = await callAs(
      t.app,
      staff,
      totpDisable,
      unchecked({ account_id: 'manager-a', password: FIXTURE_PASSWORD, otp: codeOf(secret) }),
    );
    expect(res.status).toBe(400);
    expect(res.error.message).toBe(totpMessages.notEnabled);
    expect((await callAs(t.app, token, totpStatus, {})).body.enabled).toBe(true);
    expect(await auditRows('account.totp_disable', 'manager-a')).toEqual([]);
  });

  it('disable needs the password and a code; then the account signs in without a code', async () => {
    moveToNextStep();
    const wrongPassword = await callAs(t.app, token, totpDisable, { password: 'wrong-password', otp: codeOf(secret) });
    expect(wrongPassword.status).toBe(401);
    expect(wrongPassword.error.errors).toEqual({ password: totpMessages.passwordWrong });
    const wrongCode = await callAs(t.app, token, totpDisable, { password: FIXTURE_PASSWORD, otp: wrongCodeOf(secret) });
    expect(wrongCode.status).toBe(401);
    expect(wrongCode.error.errors).toEqual({ otp: totpMessages.otpWrong });
    const ok = await callAs(t.app, token, totpDisable, { password: FIXTURE_PASSWORD, otp: codeOf(secret) });
    expect(ok.status, ok.raw.body).toBe(200);
    expect(await auditRows('account.totp_disable', 'manager-a')).toEqual([{ account_id: 'manager-a', detail: {} }]);
    expect((await callAs(t.app, token, totpStatus, {})).body.enabled).toBe(false);
    await login(t.app, 'managerA');
  });
});

describe('a company that requires TOTP', () => {
  it('only its company admin (with TOTP on) and the super admin may require it', async () => {
    const admin = await login(t.app, 'adminA');
    const first = await callAs(t.app, admin, companyTotpPolicyUpdate, { company_id: 'company-a', require_totp: true });
    expect(first.status).toBe(400);
    expect(first.error.message).toBe(totpMessages.ownTotpFirst);

    const manager = await login(t.app, 'managerA');
    expect(
      (await callAs(t.app, manager, companyTotpPolicyUpdate, { company_id: 'company-a', require_totp: true })).status,
    ).toBe(403);
    const other = await login(t.app, 'adminB');
    expect((await callAs(t.app, other, companyTotpPolicy, { company_id: 'company-a' })).status).toBe(404);
    expect(
      (await callAs(t.app, other, companyTotpPolicyUpdate, { company_id: 'company-a', require_totp: true })).status,
    ).toBe(404);

    moveToNextStep();
    await enableTotp('admin-a', admin);
    const on = await callAs(t.app, admin, companyTotpPolicyUpdate, { company_id: 'company-a', require_totp: true });
    expect(on.status, on.raw.body).toBe(200);
    expect((await callAs(t.app, admin, companyTotpPolicy, { company_id: 'company-a' })).body).toEqual({
      company_id: 'company-a',
      require_totp: true,
    });
    expect(await auditRows('company.totp_policy', 'company-a')).toEqual([
      { account_id: 'admin-a', detail: { require_totp: true } },
    ]);
    const sup = await login(t.app, 'superAdmin');
    expect((await callAs(t.app, sup, companyTotpPolicy, { company_id: 'company-b' })).body).toEqual({
      company_id: 'company-b',
      require_totp: false,
    });
  });

  it('an account of it without TOTP signs in to a session that can only set TOTP up; after that, everything opens', async () => {
    const staff = await login(t.app, 'staffA');
    const blocked = await callAs(t.app, staff, carList, {});
    expect(blocked.status).toBe(403);
    expect(blocked.error).toMatchObject({ code: 'TOTP_SETUP_REQUIRED', message: totpMessages.setupRequired });
    expect((await callAs(t.app, staff, meCall, {})).status).toBe(200);
    expect((await callAs(t.app, staff, totpStatus, {})).body).toEqual({
      enabled: false,
      required: true,
      recovery_codes_left: 0,
    });

    moveToNextStep();
    const secret = await enableTotp('staff-a', staff);
    expect((await callAs(t.app, staff, carList, {})).status).toBe(200);

    moveToNextStep();
    const off = await callAs(t.app, staff, totpDisable, { password: FIXTURE_PASSWORD, otp: codeOf(secret) });
    expect(off.status).toBe(403);
    expect(off.error.message).toBe(totpMessages.requiredByCompany);
  });

  it('another company is not affected', async () => {
    const other = await login(t.app, 'adminB');
    expect((await callAs(t.app, other, carList, {})).status).toBe(200);
  });
});

describe('the login counts as the step-up; used codes; recovery codes', () => {
  let secret = '';
  let codes: string[] = [];
  let first = '';
  const signIn = (second: { otp?: string; recovery_code?: string }) =>
    callAs(t.app, undefined, loginCall, { username: 'admin-b', password: FIXTURE_PASSWORD, ...second });
  const prohibit = (token: string) => reserveEngineCall(t.app, token, fleet.B.car_data_id, 1);
  const codesLeft = async (token: string) => (await callAs(t.app, token, totpStatus, {})).body.recovery_codes_left;
  const storedHashes = async () =>
    (
      await t.db
        .selectFrom('account_totp_recovery_codes')
        .select('code_hash')
        .where('account_id', '=', 'admin-b')
        .execute()
    ).map((r) => r.code_hash);

  it('enabling answers ten recovery codes once; only their hashes are stored', async () => {
    first = await login(t.app, 'adminB');
    moveToNextStep();
    const setup = await callAs(t.app, first, totpSetup, {});
    secret = setup.body.secret;
    const enable = await callAs(t.app, first, totpEnable, { otp: codeOf(secret) });
    expect(enable.status, enable.raw.body).toBe(200);
    codes = enable.body.recovery_codes;
    expect(codes).toHaveLength(RECOVERY_CODE_COUNT);
    expect(new Set(codes).size).toBe(RECOVERY_CODE_COUNT);
    for (const code of codes) expect(code).toMatch(/^[a-z2-7]{4}(-[a-z2-7]{4}){3}$/);
    const hashes = await storedHashes();
    expect(hashes).toHaveLength(RECOVERY_CODE_COUNT);
    for (const code of codes)
      for (const hash of hashes) {
        expect(hash).not.toContain(code.replaceAll('-', ''));
        expect(hash).not.toContain(code);
      }
    expect(await codesLeft(first)).toBe(RECOVERY_CODE_COUNT);
    expect((await callAs(t.app, first, totpStatus, {})).raw.body).not.toContain(codes[0]);
  });

  it('a login that verified a code is stepped up for STEP_UP_MINUTES, that session only', async () => {
    moveToNextStep();
    const res = await signIn({ otp: codeOf(secret) });
    expect(res.status, res.raw.body).toBe(200);
    const token = res.body.token;
    const me = await callAs(t.app, token, meCall, {});
    expect(me.body.stepped_up_until).toBe(new Date(now + STEP_UP_MINUTES * 60_000).toISOString());
    // The session signed in before has not stepped up.
    expect((await prohibit(first)).error).toMatchObject({ code: 'STEP_UP_REQUIRED' });
    const ok = await prohibit(token);
    expect(ok.status, ok.raw.body).toBe(200);
    const audit = await auditRows('session.step_up', 'admin-b');
    expect(audit).toEqual([{ account_id: 'admin-b', detail: { until: me.body.stepped_up_until, with: 'login' } }]);
    // Past the window the prohibit asks again (the clock moves past five minutes; nothing waits).
    for (let i = 0; i * STEP <= STEP_UP_MINUTES * 60_000; i++) moveToNextStep();
    expect((await prohibit(token)).error).toMatchObject({ code: 'STEP_UP_REQUIRED' });
    expect((await callAs(t.app, token, meCall, {})).body.stepped_up_until).toBeNull();
  });

  it('a login without a second factor is not a step-up', async () => {
    const token = await login(t.app, 'managerA');
    expect((await callAs(t.app, token, meCall, {})).body.stepped_up_until).toBeNull();
  });

  it('a code already used is refused as used, at login, step-up and disable, and counts as a failed try', async () => {
    moveToNextStep();
    const code = codeOf(secret);
    const res = await signIn({ otp: code });
    expect(res.status, res.raw.body).toBe(200);
    const before = await failedAttempts();
    const used = { message: totpMessages.otpUsed, errors: { otp: totpMessages.otpUsed } };
    expect((await signIn({ otp: code })).error).toMatchObject({ code: 'UNAUTHORIZED', ...used });
    const step = await callAs(t.app, first, stepUp, { password: FIXTURE_PASSWORD, otp: code });
    expect(step.status).toBe(401);
    expect(step.error).toMatchObject(used);
    const off = await callAs(t.app, first, totpDisable, { password: FIXTURE_PASSWORD, otp: code });
    expect(off.status).toBe(401);
    expect(off.error).toMatchObject(used);
    expect(await failedAttempts()).toBe(before + 3);
    expect(await codesLeft(first)).toBe(RECOVERY_CODE_COUNT);
  });

  it('a recovery code signs in once in place of the code (any case, spaces), steps the session up and is audited', async () => {
    const code = codes[0]!;
    const res = await signIn({ recovery_code: ` ${code.toUpperCase().replaceAll('-', ' ')} ` });
    expect(res.status, res.raw.body).toBe(200);
    const me = await callAs(t.app, res.body.token, meCall, {});
    expect(me.body.stepped_up_until).toEqual(expect.any(String));
    expect(await codesLeft(first)).toBe(RECOVERY_CODE_COUNT - 1);
    const again = await signIn({ recovery_code: code });
    expect(again.status).toBe(401);
    expect(again.error).toMatchObject({
      message: totpMessages.recoveryCodeUsed,
      errors: { recovery_code: totpMessages.recoveryCodeUsed },
    });
    expect(await auditRows('account.totp_recovery_used', 'admin-b')).toEqual([
      { account_id: 'admin-b', detail: { call: 'login', remaining: RECOVERY_CODE_COUNT - 1 } },
    ]);
  });

  it('a recovery code is taken by the step-up too', async () => {
    const res = await callAs(t.app, first, stepUp, { password: FIXTURE_PASSWORD, recovery_code: codes[1]! });
    expect(res.status, res.raw.body).toBe(200);
    expect((await prohibit(first)).error?.code).not.toBe('STEP_UP_REQUIRED');
    expect(await codesLeft(first)).toBe(RECOVERY_CODE_COUNT - 2);
    const again = await callAs(t.app, first, stepUp, { password: FIXTURE_PASSWORD, recovery_code: codes[1]! });
    expect(again.error.errors).toEqual({ recovery_code: totpMessages.recoveryCodeUsed });
  });

  it('wrong recovery codes count against the sign-in limits, and then even a right one is refused', async () => {
    const before = await failedAttempts();
    const wrong = await signIn({ recovery_code: 'aaaa-aaaa-aaaa-aaaa' });
    expect(wrong.status).toBe(401);
    expect(wrong.error.errors).toEqual({ recovery_code: totpMessages.recoveryCodeWrong });
    expect(await failedAttempts()).toBe(before + 1);
    let refused = 1;
    while ((await signIn({ recovery_code: 'aaaa-aaaa-aaaa-aaaa' })).status === 401) expect(++refused).toBeLessThan(30);
    const limited = await signIn({ recovery_code: codes[2]! });
    expect(limited.status).toBe(429);
    expect(await codesLeft(first)).toBe(RECOVERY_CODE_COUNT - 2);
  });

  it('new recovery codes need the password and a code; they replace the old ones', async () => {
    moveToNextStep();
    const wrongPassword = await callAs(t.app, first, totpRecoveryCodes, {
      password: 'wrong-password',
      otp: codeOf(secret),
    });
    expect(wrongPassword.status).toBe(401);
    expect(wrongPassword.error.errors).toEqual({ password: totpMessages.passwordWrong });
    const wrongCode = await callAs(t.app, first, totpRecoveryCodes, {
      password: FIXTURE_PASSWORD,
      otp: wrongCodeOf(secret),
    });
    expect(wrongCode.status).toBe(401);
    expect(wrongCode.error.errors).toEqual({ otp: totpMessages.otpWrong });
    const res = await callAs(t.app, first, totpRecoveryCodes, { password: FIXTURE_PASSWORD, otp: codeOf(secret) });
    expect(res.status, res.raw.body).toBe(200);
    const fresh = res.body.recovery_codes;
    expect(fresh).toHaveLength(RECOVERY_CODE_COUNT);
    expect(fresh.filter((c) => codes.includes(c))).toEqual([]);
    expect(await codesLeft(first)).toBe(RECOVERY_CODE_COUNT);
    expect(await auditRows('account.totp_recovery_codes', 'admin-b')).toEqual([{ account_id: 'admin-b', detail: {} }]);
    const old = await signIn({ recovery_code: codes[3]! });
    expect(old.error.errors).toEqual({ recovery_code: totpMessages.recoveryCodeWrong });
    expect((await signIn({ recovery_code: fresh[0]! })).status).toBe(200);
    codes = fresh.slice(1);
  });

  it('validation errors of the recovery codes are in Japanese', async () => {
    const empty = await callAs(t.app, first, totpRecoveryCodes, unchecked({}));
    expect(empty.status).toBe(400);
    expect(empty.error.errors).toEqual({ password: validationMessages.required, otp: validationMessages.required });
    const both = await callAs(t.app, first, totpRecoveryCodes, {
      password: FIXTURE_PASSWORD,
      otp: '123456',
      recovery_code: codes[0]!,
    });
    expect(both.status).toBe(400);
    expect(both.error.errors).toEqual({ recovery_code: totpMessages.oneCodeOnly });
    const format = await signIn({ recovery_code: 'abc' });
    expect(format.status).toBe(400);
    expect(format.error.errors).toEqual({ recovery_code: totpMessages.recoveryCodeFormat });
    const stepFormat = await callAs(t.app, first, stepUp, { password: FIXTURE_PASSWORD, recovery_code: '1234' });
    expect(stepFormat.status).toBe(400);
    expect(stepFormat.error.errors).toEqual({ recovery_code: totpMessages.recoveryCodeFormat });
    expect(await codesLeft(first)).toBe(RECOVERY_CODE_COUNT - 1);
  });

  it("nobody renews another account's recovery codes: the call acts on the caller's own account", async () => {
    const hashes = await storedHashes();
    // The super admin, without TOTP: the call answers for their own account, which has none.
    const other = await login(t.app, 'superAdmin');
    moveToNextStep();
    const res = await callAs(
      t.app,
      other,
      totpRecoveryCodes,
      unchecked({ account_id: 'admin-b', password: FIXTURE_PASSWORD, otp: codeOf(secret) }),
    );
    expect(res.status).toBe(400);
    expect(res.error.message).toBe(totpMessages.notEnabled);
    expect(await storedHashes()).toEqual(hashes);
    expect(
      (await callAs(t.app, undefined, totpRecoveryCodes, { password: FIXTURE_PASSWORD, otp: '123456' })).status,
    ).toBe(401);
  });

  it('disable takes a recovery code in place of the code, and drops the recovery codes', async () => {
    const res = await callAs(t.app, first, totpDisable, { password: FIXTURE_PASSWORD, recovery_code: codes[0]! });
    expect(res.status, res.raw.body).toBe(200);
    expect(await storedHashes()).toEqual([]);
    expect(await codesLeft(first)).toBe(0);
  });
});
