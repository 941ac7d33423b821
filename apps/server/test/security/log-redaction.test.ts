import { DEVICE_BATCH_PATH, LIVE_PATH, carList, login, passwordResetByToken } from '@fleet/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  FIXTURE_PASSWORD,
  accounts,
  callAs,
  callAsFrom,
  createTestApp,
  fleet,
  seedFixtures,
  type TestApp,
} from '../helper.js';
import { basic } from '../telemetry-support.js';

/**
 * Issue 13: the password-reset token reached the log in the request URL, and a
 * log reader could take the account over. Every log line the server writes
 * during sign-in, a reset link, a reset and a refused terminal is captured here
 * at the most verbose level and searched for the secrets.
 */
const lines: string[] = [];
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({
    env: { LOG_LEVEL: 'trace' },
    logStream: { write: (line: string) => void lines.push(line) },
  });
  await seedFixtures(t.db);
});
afterAll(() => t?.close());

const RESET_TOKEN = 'ResetTokenThatMustNotBeLogged0123456789abcdef';
const TERMINAL_GUESS = 'TerminalGuessThatMustNotBeLogged';
const WRONG_PASSWORD = 'WrongPasswordThatMustNotBeLogged';

it('writes no token, password or credential header into any log line', async () => {
  const signIn = await callAsFrom(
    t.app,
    undefined,
    login,
    { username: accounts.superAdmin.account_id, password: FIXTURE_PASSWORD },
    { headers: { cookie: 'sid=CookieValueThatMustNotBeLogged' } },
  );
  expect(signIn.status).toBe(200);
  const token = signIn.body.token;
  await callAs(t.app, undefined, login, { username: accounts.adminA.account_id, password: WRONG_PASSWORD });
  await callAs(t.app, token, carList, {});
  await t.app.inject({ method: 'GET', url: `/password_reset?token=${RESET_TOKEN}` });
  await t.app.inject({ method: 'GET', url: `/password_reset?lang=ja&token=${RESET_TOKEN}#x` });
  await t.app.inject({ method: 'GET', url: `${LIVE_PATH}?ticket=${RESET_TOKEN}` });
  await callAs(t.app, undefined, passwordResetByToken, {
    token: RESET_TOKEN,
    password: WRONG_PASSWORD,
    password_confirm: WRONG_PASSWORD,
  });
  const refused = await t.app.inject({
    method: 'POST',
    url: DEVICE_BATCH_PATH,
    payload: { seq: 1, records: [] },
    headers: { authorization: basic(fleet.A.car_device_id, TERMINAL_GUESS) },
  });
  expect(refused.statusCode).toBe(401);

  const log = lines.join('');
  // The lines are there (the test would prove nothing otherwise) …
  expect(log).toContain('/password_reset');
  expect(log).toContain('terminal authentication failed');
  // … and carry none of the secrets.
  for (const secret of [
    RESET_TOKEN,
    token,
    FIXTURE_PASSWORD,
    WRONG_PASSWORD,
    TERMINAL_GUESS,
    basic(fleet.A.car_device_id, TERMINAL_GUESS).slice('Basic '.length),
    'CookieValueThatMustNotBeLogged',
  ]) {
    expect(log, secret).not.toContain(secret);
  }
});
