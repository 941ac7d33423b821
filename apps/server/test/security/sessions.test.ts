import { createHash, randomBytes, scryptSync } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  DEVICE_BATCH_PATH,
  LOG_EXPORT_PATH,
  accountAdd,
  accountDelete,
  accountUpdate,
  carGetDetail,
  checkToken,
  errorMessages,
  login,
  logout,
  me as meCall,
  passwordReset,
  sessionMessages,
} from '@fleet/contract';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HASH_PARAMS, TEST_HASH_LOG2N } from '../../src/credentials/password.js';
import { LOGIN_LIMITS } from '../../src/credentials/login-limit.js';
import { loadConfig } from '../../src/config.js';
import { startServer } from '../../src/server.js';
import {
  FIXTURE_PASSWORD,
  accounts,
  callAs,
  callAsFrom,
  companyA,
  createSignedInApp,
  fleet,
  type SignedInApp,
} from '../helper.js';
import { basic } from '../telemetry-support.js';
import { NEW_PASSWORD, createWorld, expectErrorShape, type World } from './world.js';

/**
 * The promises about sessions and passwords (docs/security.md): tokens,
 * their lifetimes and revocation, scrypt parameters and salts, the rehash
 * path, failed-login limits, security headers, no default credentials.
 */
let w: World;
beforeAll(async () => {
  w = await createWorld();
});
afterAll(() => w?.t.close());

const defaults = loadConfig({});
let ip = 0;
const nextIp = () => `192.0.2.${++ip}`;
const signIn = (app: FastifyInstance, username: string, password = FIXTURE_PASSWORD, remoteAddress = nextIp()) =>
  callAsFrom(app, undefined, login, { username, password }, { remoteAddress });
const tokenOf = async (username: string) => {
  const res = await signIn(w.app, username);
  expect(res.status, res.raw.body).toBe(200);
  return res.body.token;
};
const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
const me = (token: string) => callAs(w.app, token, meCall, {});
const expectSignedOut = async (token: string) => {
  const res = await me(token);
  expect(res.status).toBe(401);
  expect(res.raw.json()).toEqual({ code: 'UNAUTHORIZED', message: sessionMessages.invalidToken });
};

describe('session tokens', () => {
  let token: string;
  beforeAll(async () => {
    token = await tokenOf(accounts.staffA.account_id);
  });

  it('carry at least 128 random bits (256: 32 bytes, base64url) and differ every time', async () => {
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(token, 'base64url').length * 8).toBeGreaterThanOrEqual(128);
    const other = await tokenOf(accounts.staffA.account_id);
    expect(other).not.toBe(token);
  });

  it('are stored only as their SHA-256: no column of the sessions table holds the token', async () => {
    const rows = await w.db.selectFrom('sessions').selectAll().execute();
    expect(JSON.stringify(rows)).not.toContain(token);
    expect(rows.map((r) => r.token_hash)).toContain(sha256(token));
  });

  it(`end ${defaults.SESSION_MAX_HOURS} hours after sign-in whatever the activity (absolute expiry)`, async () => {
    const row = await w.db
      .selectFrom('sessions')
      .select(['created_at', 'expires_at'])
      .where('token_hash', '=', sha256(token))
      .executeTakeFirstOrThrow();
    const hours = (new Date(row.expires_at).getTime() - new Date(row.created_at).getTime()) / 3600_000;
    expect(hours).toBeCloseTo(defaults.SESSION_MAX_HOURS, 1);
    const t = await tokenOf(accounts.staffA.account_id);
    await w.db
      .updateTable('sessions')
      .set({ expires_at: sql`now() - interval '1 second'`, last_seen_at: sql`now()` })
      .where('token_hash', '=', sha256(t))
      .execute();
    await expectSignedOut(t);
  });

  it(`end after ${defaults.SESSION_IDLE_MINUTES} idle minutes, and activity before that keeps them alive`, async () => {
    const idle = defaults.SESSION_IDLE_MINUTES;
    const alive = await tokenOf(accounts.staffA.account_id);
    const dead = await tokenOf(accounts.staffA.account_id);
    const set = (t: string, minutes: number) =>
      w.db
        .updateTable('sessions')
        .set({ last_seen_at: sql`now() - make_interval(mins => ${minutes})` })
        .where('token_hash', '=', sha256(t))
        .execute();
    await set(alive, idle - 1);
    await set(dead, idle + 1);
    expect((await me(alive)).status).toBe(200);
    const touched = await w.db
      .selectFrom('sessions')
      .select(sql<number>`extract(epoch from now() - last_seen_at)::int`.as('ago'))
      .where('token_hash', '=', sha256(alive))
      .executeTakeFirstOrThrow();
    expect(touched.ago).toBeLessThan(60);
    await expectSignedOut(dead);
    expect(
      (await callAs(w.app, undefined, checkToken, { account_id: accounts.staffA.account_id, token: dead })).body,
    ).toEqual({ ok: false });
  });

  it('are written at most once a minute: a call within a minute of the last touch leaves last_seen_at as it was', async () => {
    const t = await tokenOf(accounts.staffA.account_id);
    const at = (seconds: number) =>
      w.db
        .updateTable('sessions')
        .set({ last_seen_at: sql`now() - make_interval(secs => ${seconds})` })
        .where('token_hash', '=', sha256(t))
        .execute();
    const ago = async () =>
      (
        await w.db
          .selectFrom('sessions')
          .select(sql<number>`extract(epoch from now() - last_seen_at)::int`.as('ago'))
          .where('token_hash', '=', sha256(t))
          .executeTakeFirstOrThrow()
      ).ago;
    await at(30);
    expect((await me(t)).status).toBe(200);
    expect(await ago()).toBeGreaterThanOrEqual(30);
    await at(90);
    expect((await me(t)).status).toBe(200);
    expect(await ago()).toBeLessThan(60);
  });
});

describe('sessions end', () => {
  it('on logout', async () => {
    const t = await tokenOf(accounts.staffA.account_id);
    expect((await callAs(w.app, t, logout, {})).status).toBe(200);
    await expectSignedOut(t);
  });

  it('when the account is deleted', async () => {
    const { account_id } = await w.fresh.account('own');
    const t = await tokenOf(account_id);
    expect((await callAs(w.app, w.tokens.adminA, accountDelete, { account_id, isDelete: true })).status).toBe(200);
    await expectSignedOut(t);
  });

  it('when the role or the company changes', async () => {
    const a = await w.fresh.account('own', 2);
    const b = await w.fresh.account('own', 2);
    const [ta, tb] = [await tokenOf(a.account_id), await tokenOf(b.account_id)];
    const edit = (x: { account_id: string; email: string }, change: { role?: number; company_id?: string }) => ({
      info: { account_id: x.account_id, name: '変更', email: x.email, role: 2, company_id: companyA, ...change },
    });
    expect((await callAs(w.app, w.tokens.managerA, accountUpdate, edit(a, { role: 1 }))).status).toBe(200);
    expect((await callAs(w.app, w.tokens.superAdmin, accountUpdate, edit(b, { company_id: 'company-b' }))).status).toBe(
      200,
    );
    await expectSignedOut(ta);
    await expectSignedOut(tb);
  });

  it('when a manager sets the password, and (but for the current one) when the owner changes it', async () => {
    const a = await w.fresh.account('own', 2);
    const [t1, t2] = [await tokenOf(a.account_id), await tokenOf(a.account_id)];
    const change = {
      info: { current_password: FIXTURE_PASSWORD, password: NEW_PASSWORD, password_confirm: NEW_PASSWORD },
    };
    expect((await callAs(w.app, t1, passwordReset, change)).status).toBe(200);
    expect((await me(t1)).status).toBe(200);
    await expectSignedOut(t2);
    const reset = {
      info: { account_id: a.account_id, password: FIXTURE_PASSWORD, password_confirm: FIXTURE_PASSWORD },
    };
    expect((await callAs(w.app, w.tokens.managerA, passwordReset, reset)).status).toBe(200);
    await expectSignedOut(t1);
  });
});

describe('passwords', () => {
  // The other tests hash at NODE_ENV=test's cheaper cost (config's passwordHashLog2N); these check what
  // every other start hashes with, on an app configured as one (its sign-in rehashes adminA's fixture hash).
  let strong: SignedInApp;
  beforeAll(async () => {
    strong = await createSignedInApp(['adminA'], { env: { NODE_ENV: 'development' } });
  });
  afterAll(() => strong?.close());

  it('under NODE_ENV=test alone, new hashes are cheaper', () => {
    expect(strong.config.passwordHashLog2N).toBe(17);
    expect(loadConfig({ NODE_ENV: 'production' }).passwordHashLog2N).toBe(17);
    expect(loadConfig({ NODE_ENV: 'test' }).passwordHashLog2N).toBe(TEST_HASH_LOG2N);
    expect(TEST_HASH_LOG2N).toBeLessThan(HASH_PARAMS.log2N);
  });

  const add = (account_id: string) =>
    callAs(strong.app, strong.tokens.adminA, accountAdd, {
      info: {
        account_id,
        name: '同じ 太郎',
        email: `${account_id}@example.jp`,
        role: 2,
        company_id: companyA,
        password: 'same-password',
        password_confirm: 'same-password',
      },
    });
  const hashOf = async (id: string) =>
    (
      await strong.db
        .selectFrom('accounts')
        .select('password_hash')
        .where('account_id', '=', id)
        .executeTakeFirstOrThrow()
    ).password_hash;

  it('are hashed with scrypt N=2^17, r=8, p=1 and a 16-byte salt of their own', async () => {
    expect(HASH_PARAMS).toMatchObject({ log2N: 17, r: 8, p: 1 });
    expect((await add('same-pass-1')).status).toBe(200);
    expect((await add('same-pass-2')).status).toBe(200);
    const [h1, h2] = [await hashOf('same-pass-1'), await hashOf('same-pass-2')];
    for (const h of [h1, h2]) {
      const [alg, log2N, r, p, salt, key] = h.split('$');
      expect([alg, log2N, r, p]).toEqual(['scrypt', '17', '8', '1']);
      expect(Buffer.from(salt!, 'base64')).toHaveLength(16);
      expect(Buffer.from(key!, 'base64')).toHaveLength(64);
      expect(h).not.toContain('same-password');
    }
    expect(h1.split('$')[4]).not.toBe(h2.split('$')[4]);
    expect(h1).not.toBe(h2);
  });

  it('hashed with older parameters are re-hashed at today’s on the next successful sign-in', async () => {
    const account_id = 'old-hash-owner';
    await strong.db
      .insertInto('accounts')
      .values({
        account_id,
        name: '旧 方式',
        email: 'old-hash@example.jp',
        role: 2,
        company_id: companyA,
        password_hash: '',
      })
      .execute();
    const salt = randomBytes(16);
    const old = [
      'scrypt',
      14,
      8,
      1,
      salt.toString('base64'),
      scryptSync(FIXTURE_PASSWORD, salt, 32, { N: 2 ** 14, r: 8, p: 1 }).toString('base64'),
    ].join('$');
    await strong.db.updateTable('accounts').set({ password_hash: old }).where('account_id', '=', account_id).execute();
    expect((await signIn(strong.app, account_id)).status).toBe(200);
    const now = await hashOf(account_id);
    expect(now.split('$').slice(0, 4)).toEqual(['scrypt', '17', '8', '1']);
    expect((await signIn(strong.app, account_id)).status).toBe(200);
  });
});

describe('failed sign-ins are limited', () => {
  const fail = (ipAddr: string, username: string, n: number, minutesAgo = 0) =>
    w.db
      .insertInto('login_attempts')
      .values(
        Array.from({ length: n }, () => ({
          ip: ipAddr,
          username,
          succeeded: false,
          at: sql<Date>`now() - make_interval(mins => ${minutesAgo})`,
        })),
      )
      .execute();

  it(`per IP: after ${LOGIN_LIMITS.perIpPerMinute} failures in a minute, even the right password gets 429 in Japanese; other IPs are unaffected`, async () => {
    const attacker = nextIp();
    await fail(attacker, 'someone-else', LOGIN_LIMITS.perIpPerMinute - 1);
    expect((await signIn(w.app, accounts.staffA.account_id, 'wrong-password', attacker)).status).toBe(401);
    const res = await signIn(w.app, accounts.staffA.account_id, FIXTURE_PASSWORD, attacker);
    expect(res.status).toBe(429);
    expect(res.raw.json()).toEqual({ code: 'TOO_MANY_REQUESTS', message: sessionMessages.tooManyAttempts });
    expect((await signIn(w.app, accounts.staffA.account_id)).status).toBe(200);
  });

  it(`per account name: after ${LOGIN_LIMITS.perUserPerHour} failures in an hour from anywhere, 429; an hour later it opens again`, async () => {
    const { account_id } = await w.fresh.account('own');
    // Attempts are counted under the account they reach, by its id lower-cased, whatever name was typed.
    await fail('198.51.100.1', account_id.toLowerCase(), LOGIN_LIMITS.perUserPerHour);
    const res = await signIn(w.app, account_id);
    expect(res.status).toBe(429);
    expect(res.error.message).toBe(sessionMessages.tooManyAttempts);
    await w.db
      .updateTable('login_attempts')
      .set({ at: sql`now() - interval '61 minutes'` })
      .where('username', '=', account_id.toLowerCase())
      .execute();
    expect((await signIn(w.app, account_id)).status).toBe(200);
  });

  it('one counter per account whatever name reached it: failures on the id lock the email too (any case)', async () => {
    const { account_id, email } = await w.fresh.account('own');
    await fail('198.51.100.2', account_id.toLowerCase(), LOGIN_LIMITS.perUserPerHour);
    expect((await signIn(w.app, email.toUpperCase())).status).toBe(429);
    expect((await signIn(w.app, email)).status).toBe(429);
  });
});

describe('security headers', () => {
  it.each([
    ['an API answer', async () => (await me(w.tokens.staffA)).raw],
    ['an API refusal', async () => (await callAs(w.app, undefined, meCall)).raw],
    ['an unknown path', () => w.app.inject({ method: 'GET', url: '/nowhere' })],
    [
      'a CSV export',
      () =>
        w.app.inject({
          method: 'GET',
          url: LOG_EXPORT_PATH,
          query: { kind: 'gps', car_data_id: fleet.A.car_data_id },
          headers: { authorization: `Bearer ${w.tokens.staffA}` },
        }),
    ],
  ])('are on %s: CSP with frame-ancestors none, nosniff, no framing, no referrer', async (_label, send) => {
    const res = await send();
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("object-src 'none'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    expect(res.headers['x-powered-by']).toBeUndefined();
  });

  it("are on the device gateway as an API's: nothing loads, nothing frames, nosniff, no referrer, no caching", async () => {
    const res = await w.app.inject({
      method: 'POST',
      url: DEVICE_BATCH_PATH,
      payload: { seq: 1, records: [] },
      headers: { authorization: basic(fleet.A.car_device_id) },
    });
    expect(res.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['x-powered-by']).toBeUndefined();
  });

  it('refusals never tell more than the error shape', async () => {
    const res = await callAs(w.app, w.tokens.staffA, carGetDetail, { car_id: fleet.B.car_id });
    expectErrorShape(res.raw);
    expect(res.raw.json()).toEqual({ code: 'NOT_FOUND', message: errorMessages.notFound });
  });
});

describe('no default credentials outside demo mode', () => {
  it('a production start on an empty database creates no account at all, and its answers require HTTPS', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'fleet-prod-'));
    const config = loadConfig({
      NODE_ENV: 'production',
      DATA_DIR: dir,
      PORT: '0',
      HOST: '127.0.0.1',
      SIMULATE: '0',
      LOG_LEVEL: 'silent',
      INIT_CWD: dir,
    });
    const server = await startServer(config, { webRoot: path.join(dir, 'no-web') });
    try {
      expect(server.seeded).toBe(false);
      const n = await server.database.db
        .selectFrom('accounts')
        .select(sql<number>`count(*)::int`.as('n'))
        .executeTakeFirstOrThrow();
      expect(n.n).toBe(0);
      // Production answers, the console's and a terminal's alike, hold browsers to HTTPS for a year.
      const hsts = 'max-age=31536000; includeSubDomains';
      const api = await server.app.inject({ method: 'GET', url: '/api/me' });
      expect(api.headers['strict-transport-security']).toBe(hsts);
      const terminal = await server.app.inject({
        method: 'POST',
        url: DEVICE_BATCH_PATH,
        payload: { seq: 1, records: [] },
        headers: { authorization: basic('no-such-terminal') },
      });
      expect(terminal.headers['strict-transport-security']).toBe(hsts);
    } finally {
      await server.stop();
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
