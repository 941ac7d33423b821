import {
  DEVICE_BATCH_PATH,
  deviceAdd,
  deviceDelete,
  deviceProtocolMessages as msg,
  deviceUpdate,
} from '@fleet/contract';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { TERMINAL_AUTH_LIMITS } from '../src/credentials/terminal-auth-limit.js';
import { TERMINAL_CHANNEL, TerminalCache, terminalsChanged } from '../src/credentials/terminal-cache.js';
import { outsideSql, type OutsideSql } from './outside-sql.js';
import { callAs, createTestApp, fleet, login, seedFixtures, type TestApp } from './helper.js';
import { basic, reply } from './telemetry-support.js';

/**
 * The gateway's terminal cache (credentials/terminal-cache.ts, issue #19): a terminal's row and "not over
 * the failed-authentication limit" come from memory, and whatever changes them is heard at once: a new
 * password, a deletion, a failed guess. Both databases; the outside-SQL part on PostgreSQL only.
 */
const onPostgres = !!inject('databaseUrl');
const quiet = { warn: () => undefined };

let t: TestApp;
let superAdmin: string;
beforeAll(async () => {
  t = await createTestApp({ env: { SESSION_CACHE: 'true' } });
  await seedFixtures(t.db);
  superAdmin = await login(t.app, 'superAdmin');
});
afterAll(() => t?.close());

let seq = 1;
const report = (authorization: string, remoteAddress = '198.51.100.7') =>
  t.app.inject({
    method: 'POST',
    url: DEVICE_BATCH_PATH,
    remoteAddress,
    payload: { seq: ++seq, records: [] },
    headers: { 'content-type': 'application/json', authorization },
  });

const terminal = (id: string, imei: string, password: string) => ({
  car_device_id: id,
  password,
  ipaddr: '198.51.100.0/24, 10.1.1.1',
  macaddr: '02:1A:7F:00:00:42',
  car_type: '日産 ノート',
  car_data_id: imei,
});

/** A terminal's row as the gateway reads it; `hash` tells one read from another. */
const row = (id: string, hash = 'hmac256$salt$mac') => ({
  car_device_id: id,
  car_data_id: '359999999999999',
  password_hash: hash,
  is_delete: false,
  protocol: 'json',
  ipaddr: '',
});

/** A cache of its own beside the app's, listening, closed after `use`. */
async function withCache(use: (cache: TerminalCache) => Promise<void>) {
  const cache = new TerminalCache(t.db, quiet);
  await cache.listening();
  try {
    await use(cache);
  } finally {
    await cache.close();
  }
}

describe('the cache itself', () => {
  it('reads a terminal once, again after its change is said, and never keeps an unknown one', () =>
    withCache(async (cache) => {
      const reads: string[] = [];
      const load = async (id: string) => (reads.push(id), id === 'nobody' ? undefined : row(id));
      expect(await cache.device('term-1', load)).toEqual(row('term-1'));
      expect(await cache.device('term-1', load)).toEqual(row('term-1'));
      expect(await cache.device('nobody', load)).toBeUndefined();
      expect(await cache.device('nobody', load)).toBeUndefined();
      expect(reads).toEqual(['term-1', 'nobody', 'nobody']);
      await terminalsChanged(t.db, { carDeviceId: 'term-1' });
      await cache.device('term-1', load);
      expect(reads).toEqual(['term-1', 'nobody', 'nobody', 'term-1']);
      expect(cache.stats).toEqual({ hits: 1, misses: 4 });
    }));

  it('keeps "under the limit" per IP and per id, forgets both on a failure, never keeps "over"', () =>
    withCache(async (cache) => {
      let loads = 0;
      const state = { ip: false, id: false };
      const load = async () => (loads++, { ...state });
      expect(await cache.limited('192.0.2.9', 'term-2', load)).toBe(false);
      expect(await cache.limited('192.0.2.9', 'term-2', load)).toBe(false);
      expect(loads).toBe(1);
      await terminalsChanged(t.db, { failure: ['192.0.2.9', 'another'] });
      expect(await cache.limited('192.0.2.9', 'term-2', load)).toBe(false);
      expect(loads).toBe(2);
      state.id = true;
      await terminalsChanged(t.db, { failure: ['192.0.2.200', 'term-2'] });
      expect(await cache.limited('192.0.2.9', 'term-2', load)).toBe(true);
      expect(await cache.limited('192.0.2.9', 'term-2', load)).toBe(true);
      expect(loads).toBe(4);
    }));

  it('does not keep what was read while a change was said', () =>
    withCache(async (cache) => {
      let reads = 0;
      const load = async () => {
        const seen = row('term-3', `read ${++reads}`);
        if (reads === 1) await terminalsChanged(t.db, { carDeviceId: 'term-3' });
        return seen;
      };
      expect((await cache.device('term-3', load))?.password_hash).toBe('read 1');
      expect((await cache.device('term-3', load))?.password_hash).toBe('read 2');
      expect((await cache.device('term-3', load))?.password_hash).toBe('read 2');
    }));
});

describe('the gateway with the cache', () => {
  it('refuses the old password at once after a new one is set, and takes the new one', async () => {
    const add = await callAs(t.app, superAdmin, deviceAdd, {
      info: terminal('cache-pw', '351111111111111', 'first-secret'),
    });
    expect(add.status, add.raw.body).toBe(200);
    expect((await report(basic('cache-pw', 'first-secret'))).statusCode).toBe(200);
    expect((await report(basic('cache-pw', 'first-secret'))).statusCode).toBe(200); // from memory now
    const edit = await callAs(t.app, superAdmin, deviceUpdate, {
      info: terminal('cache-pw', '351111111111111', 'second-secret'),
    });
    expect(edit.status, edit.raw.body).toBe(200);
    expect((await report(basic('cache-pw', 'first-secret'))).statusCode).toBe(401);
    expect((await report(basic('cache-pw', 'second-secret'))).statusCode).toBe(200);
  });

  it('refuses a terminal at once once it is deleted', async () => {
    const add = await callAs(t.app, superAdmin, deviceAdd, {
      info: terminal('cache-del', '352222222222222', 'del-secret'),
    });
    expect(add.status, add.raw.body).toBe(200);
    expect((await report(basic('cache-del', 'del-secret'))).statusCode).toBe(200);
    const del = await callAs(t.app, superAdmin, deviceDelete, {
      car_device_id: 'cache-del',
      car_data_id: '352222222222222',
      isDelete: true,
    });
    expect(del.status, del.raw.body).toBe(200);
    const res = await report(basic('cache-del', 'del-secret'));
    expect(res.statusCode).toBe(403);
    expect(res.json<{ message: string }>().message).toBe(msg.deviceDeleted);
  });

  it('answers 429 to the right password once the guesses pass the limit, though "under" was kept', async () => {
    const ip = '198.51.100.77';
    const id = fleet.A.car_device_id;
    expect((await report(basic(id), ip)).statusCode).toBe(200);
    expect((await report(basic(id), ip)).statusCode).toBe(200);
    for (let i = 0; i < TERMINAL_AUTH_LIMITS.perTerminal; i++)
      expect((await report(basic(id, `guess-${i}`), ip)).statusCode).toBe(401);
    const res = await report(basic(id), ip);
    expect(res.statusCode, res.body).toBe(429);
    expect(res.json<{ message: string }>().message).toBe(msg.tooManyFailures);
    // Another terminal from the same IP is still under both limits.
    const other = await report(basic(fleet.B.car_device_id), ip);
    expect(other.statusCode).toBe(200);
    expect(reply(other).accepted).toBe(0);
  });
});

describe.runIf(onPostgres)('changes to a terminal made by SQL outside the app', () => {
  let outside: OutsideSql;
  beforeAll(async () => {
    outside = await outsideSql(t.db, TERMINAL_CHANNEL);
  });
  afterAll(() => outside?.close());

  it('a terminal deleted, re-passworded or given other allowed sources by SQL is refused at once; other columns say nothing', async () => {
    const id = fleet.B.car_device_id;
    expect((await report(basic(id))).statusCode).toBe(200); // kept now
    expect(await outside.run(`UPDATE devices SET car_type = 'いすゞ エルフ' WHERE car_device_id = $1`, [id])).toEqual(
      [],
    );
    expect(await outside.run(`UPDATE devices SET is_delete = true WHERE car_device_id = $1`, [id])).toEqual([
      `d:${id}`,
    ]);
    expect((await report(basic(id))).statusCode).toBe(403);
    await outside.run(`UPDATE devices SET is_delete = false WHERE car_device_id = $1`, [id]);
    expect((await report(basic(id))).statusCode).toBe(200);
    // Its allowed sources (ipaddr) too: the gateway checks them from the cache.
    expect(await outside.run(`UPDATE devices SET ipaddr = '203.0.113.0/24' WHERE car_device_id = $1`, [id])).toEqual([
      `d:${id}`,
    ]);
    expect((await report(basic(id))).statusCode).toBe(401);
    await outside.run(`UPDATE devices SET ipaddr = '' WHERE car_device_id = $1`, [id]);
    expect((await report(basic(id))).statusCode).toBe(200);
    expect(
      await outside.run(`UPDATE devices SET password_hash = 'hmac256$x$y' WHERE car_device_id = $1`, [id]),
    ).toEqual([`d:${id}`]);
    expect((await report(basic(id))).statusCode).toBe(401);
  });
});
