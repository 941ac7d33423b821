import { DEVICE_BATCH_PATH, login } from '@fleet/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TERMINAL_AUTH_LIMITS } from '../../src/credentials/terminal-auth-limit.js';
import { createTestApp, fleet, seedFixtures, type TestApp } from '../helper.js';
import { basic, reply } from '../telemetry-support.js';
import { expectErrorShape } from './world.js';

/**
 * Attacks on the device gateway (issue 13): bodies nested millions deep, and
 * terminal passwords guessed at ~700/s with no limit and no log line.
 */
const lines: string[] = [];
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({
    env: { LOG_LEVEL: 'info' },
    logStream: { write: (line: string) => void lines.push(line) },
  });
  await seedFixtures(t.db);
});
afterAll(() => t?.close());

let seq = 5000;
const batch = (
  authorization: string | undefined,
  remoteAddress = '192.0.2.1',
  payload: string | object = { seq: ++seq, records: [] },
) =>
  t.app.inject({
    method: 'POST',
    url: DEVICE_BATCH_PATH,
    remoteAddress,
    payload,
    headers: { 'content-type': 'application/json', ...(authorization ? { authorization } : {}) },
  });

describe('JSON nested too deep', () => {
  it.each([
    ['arrays 2 million deep (4 MB)', `{"seq":1,"records":[${'['.repeat(2_000_000)}${']'.repeat(2_000_000)}]}`],
    ['objects 100 000 deep', `{"seq":1,"records":[${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}]}`],
    ['a body nested 65 levels', `${'['.repeat(65)}${']'.repeat(65)}`],
  ])('%s from a signed-in terminal is a 400 with the error shape, never a 500', async (_label, body) => {
    const res = await batch(basic(fleet.A.car_device_id), '192.0.2.2', body);
    expect(res.statusCode, res.body).toBe(400);
    expectErrorShape(res);
    expect(res.json<{ message: string }>().message).toBe('JSONの入れ子が深すぎます。');
  });

  it('counts brackets inside strings as text, not nesting', async () => {
    const res = await batch(
      basic(fleet.A.car_device_id),
      '192.0.2.2',
      `{"seq":${++seq},"records":[],"note":"${'['.repeat(1000)}\\"${'{'.repeat(1000)}"}`,
    );
    expect(res.statusCode, res.body).toBe(200);
  });

  it('a deeply nested console call is a 400 too', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: login.path,
      payload: `${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}`,
      headers: { 'content-type': 'application/json' },
    });
    expect(res.statusCode, res.body).toBe(400);
    expectErrorShape(res);
  });
});

describe('failed terminal authentication', () => {
  it('is logged at warn with the terminal id and IP, never the password', async () => {
    lines.length = 0;
    const res = await batch(basic(fleet.B.car_device_id, 'Guessed-Secret-42'), '198.51.100.7');
    expect(res.statusCode).toBe(401);
    const warnings = lines
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .filter((l) => l.msg === 'terminal authentication failed');
    expect(warnings).toEqual([
      expect.objectContaining({ level: 40, car_device_id: fleet.B.car_device_id, ip: '198.51.100.7' }),
    ]);
    expect(lines.join('\n')).not.toContain('Guessed-Secret-42');
    expect(lines.join('\n')).not.toContain(
      Buffer.from(`${fleet.B.car_device_id}:Guessed-Secret-42`).toString('base64'),
    );
  });

  it(`limits one terminal id to ${TERMINAL_AUTH_LIMITS.perTerminal} failures: then even the right password gets 429, from any IP`, async () => {
    const id = fleet.A.car_device_id;
    for (let i = 0; i < TERMINAL_AUTH_LIMITS.perTerminal; i++) {
      const res = await batch(basic(id, `wrong-${i}`), `203.0.113.${i + 1}`);
      expect(res.statusCode, `guess ${i}`).toBe(401);
    }
    const guess = await batch(basic(id, 'wrong-again'), '203.0.113.200');
    expect(guess.statusCode).toBe(429);
    expectErrorShape(guess);
    const right = await batch(basic(id), '203.0.113.201');
    expect(right.statusCode).toBe(429);
    // Other terminals are not affected.
    const other = await batch(basic(fleet.B.car_device_id), '203.0.113.201');
    expect(other.statusCode, other.body).toBe(200);
    expect(reply(other).accepted).toBe(0);
  });

  it(`limits one IP to ${TERMINAL_AUTH_LIMITS.perIp} failures across terminal ids: then its terminals get 429, other IPs do not`, async () => {
    const ip = '198.51.100.99';
    for (let i = 0; i < TERMINAL_AUTH_LIMITS.perIp; i++) {
      const res = await batch(basic(`spray-${i}`, 'x'), ip);
      expect(res.statusCode, `guess ${i}`).toBe(401);
    }
    expect((await batch(basic('spray-last', 'x'), ip)).statusCode).toBe(429);
    expect((await batch(basic(fleet.B.car_device_id), ip)).statusCode).toBe(429);
    expect((await batch(basic(fleet.B.car_device_id), '198.51.100.100')).statusCode).toBe(200);
  });

  it('is kept in the database (every instance sees it), and a refused guess adds nothing', async () => {
    const rows = await t.db
      .selectFrom('login_attempts')
      .select(({ fn }) => fn.countAll<number>().as('n'))
      .where('username', '=', `terminal:${fleet.A.car_device_id}`)
      .executeTakeFirstOrThrow();
    expect(Number(rows.n)).toBe(TERMINAL_AUTH_LIMITS.perTerminal);
  });
});
