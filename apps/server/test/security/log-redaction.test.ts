import { DEVICE_BATCH_PATH, LIVE_PATH, OSMAND_PATH, carList, login, passwordResetByToken } from '@fleet/contract';
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
import { startOsmandListener, type OsmandListener } from '../../src/gateway/osmand-listener.js';
import { basic } from '../telemetry-support.js';

/**
 * Issue 13: the password-reset token reached the log in the request URL, and a
 * log reader could take the account over. Every log line the server writes
 * during sign-in, a reset link, a reset and a refused terminal is captured here
 * at the most verbose level and searched for the secrets.
 */
const lines: string[] = [];
let t: TestApp;
let listener: OsmandListener;
beforeAll(async () => {
  t = await createTestApp({
    env: { LOG_LEVEL: 'trace' },
    logStream: { write: (line: string) => void lines.push(line) },
  });
  await seedFixtures(t.db);
  listener = await startOsmandListener(t.app, { port: 0, host: '127.0.0.1', timeoutMs: 5_000 });
});
afterAll(async () => {
  await listener?.close();
  await t?.close();
});

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

const OSMAND_SECRET = 'OsmandPasswordThatMustNotBeLogged';

/**
 * Issue 44: an OsmAnd terminal's password is the last part of its URL, and a path that matched no
 * route (a trailing slash, a suffix, a doubled slash, another case, an escape) was logged whole at
 * 'incoming request'. Paths under /device/ and OsmAnd's query forms (`id=`) are redacted before the
 * router has a say, on the main port and on OSMAND_PORT.
 */
it('writes no OsmAnd password into any log line, whatever path carries it', async () => {
  const query = 'id=358409100000001&lat=35.68&lon=139.76';
  const paths = [
    `${OSMAND_PATH}/${OSMAND_SECRET}/`,
    `${OSMAND_PATH}/${OSMAND_SECRET}/suffix?${query}`,
    `${OSMAND_PATH}//${OSMAND_SECRET}`,
    `/${OSMAND_PATH}/${OSMAND_SECRET}`,
    `/device//osmand/${OSMAND_SECRET}?${query}`,
    `/DEVICE/OsmAnd/${OSMAND_SECRET}`,
    `/device/%6Fsmand/${OSMAND_SECRET}/`,
    `/device/./osmand/${OSMAND_SECRET}/x`,
    `/device/${OSMAND_SECRET}`,
    // The Traccar Client's OSMAND_PORT form pointed at the main port.
    `/${OSMAND_SECRET}?${query}`,
    `/${OSMAND_SECRET}/?${query}`,
  ];
  const before = lines.length;
  for (const url of paths) {
    for (const method of ['GET', 'POST'] as const) {
      const res = await t.app.inject({ method, url });
      expect(res.statusCode, `${method} ${url}`).toBeGreaterThanOrEqual(400);
    }
  }
  // OSMAND_PORT: every path is the password, and a request there reaches the main app's route.
  for (const path of [`/${OSMAND_SECRET}/x?${query}`, `//${OSMAND_SECRET}?${query}`, `/${OSMAND_SECRET}?${query}`]) {
    const res = await fetch(`http://127.0.0.1:${listener.port}${path}`);
    expect(res.status, path).toBeGreaterThanOrEqual(400);
  }
  const log = lines.slice(before).join('');
  expect(log).toContain('incoming request');
  expect(log).toContain('[REDACTED]');
  expect(log).not.toContain(OSMAND_SECRET);
  expect(log.toLowerCase()).not.toContain(OSMAND_SECRET.toLowerCase());
});
