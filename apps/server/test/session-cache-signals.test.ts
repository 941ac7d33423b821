import { carListCount, me } from '@fleet/contract';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { subscribeChannel, type ChannelSubscription } from '../src/db/channel.js';
import { SESSION_CHANNEL } from '../src/sessions/session-cache.js';
import { hashToken } from '../src/sessions/token.js';
import { urlForDatabase } from './databases.js';
import { callAs, companyA, createTestApp, login, seedFixtures, type TestApp } from './helper.js';

/**
 * The session cache hears changes made outside the app (migration 2026_12_09_090000_session_change_signals):
 * a support script's UPDATE of an account or a session, through a connection of its own, reaches every
 * instance's cache by the database's own NOTIFY, so the next call is judged on the new state, long before
 * the cache's 10 s would have run out. PostgreSQL only: PGlite has one process and no outside writer.
 */
const onPostgres = !!inject('databaseUrl');

describe.runIf(onPostgres)('changes made by SQL outside the app reach the session cache', () => {
  let t: TestApp;
  let outside: pg.Client;
  let channel: ChannelSubscription;
  const heard: string[] = [];

  beforeAll(async () => {
    t = await createTestApp({ env: { SESSION_CACHE: 'true' } });
    await seedFixtures(t.db);
    channel = subscribeChannel(t.db, SESSION_CHANNEL, { warn: () => undefined }, { message: (p) => heard.push(p) });
    await channel.listening();
    const { rows } = await sql<{ name: string }>`SELECT current_database() AS name`.execute(t.db);
    outside = new pg.Client({ connectionString: urlForDatabase(inject('databaseUrl'), rows[0]!.name) });
    await outside.connect();
  });
  afterAll(async () => {
    await outside?.end();
    await channel?.close();
    await t?.close();
  });

  /**
   * Runs an outside statement, then a sentinel NOTIFY after it: signals arrive in commit order, so once the
   * sentinel is here, whatever the statement signalled is too. Returns the payloads it signalled.
   */
  async function outsideSql(text: string, values: unknown[] = []): Promise<string[]> {
    heard.length = 0;
    await outside.query(text, values);
    const sentinel = `sentinel:${Math.random()}`;
    await outside.query('SELECT pg_notify($1, $2)', [SESSION_CHANNEL, sentinel]);
    const until = Date.now() + 3000;
    while (!heard.includes(sentinel)) {
      if (Date.now() > until) throw new Error('the sentinel NOTIFY never arrived');
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    return heard.filter((p) => p !== sentinel);
  }

  const whoAmI = async (token: string) => {
    const res = await callAs(t.app, token, me);
    return res.status === 200 ? res.body.name : res.status;
  };

  it('an account renamed, re-roled or deleted by SQL is read again at once', async () => {
    const token = await login(t.app, 'staffA');
    expect(await whoAmI(token)).toBe('一般 次郎'); // cached now
    expect(await outsideSql(`UPDATE accounts SET name = '外から 変更' WHERE account_id = 'staff-a'`)).toEqual([
      'a:staff-a',
    ]);
    expect(await whoAmI(token)).toBe('外から 変更');
    expect(await outsideSql(`UPDATE accounts SET is_delete = true WHERE account_id = 'staff-a'`)).toEqual([
      'a:staff-a',
    ]);
    expect(await whoAmI(token)).toBe(401);
    await outsideSql(`UPDATE accounts SET is_delete = false, name = '一般 次郎' WHERE account_id = 'staff-a'`);
  });

  it('a session revoked by SQL is refused at once; sliding its idle time says nothing', async () => {
    const token = await login(t.app, 'managerA');
    const hash = hashToken(token);
    expect(await whoAmI(token)).toBe('管理 花子');
    expect(await outsideSql(`UPDATE sessions SET last_seen_at = now() WHERE token_hash = $1`, [hash])).toEqual([]);
    expect(await outsideSql(`UPDATE sessions SET revoked_at = now() WHERE token_hash = $1`, [hash])).toEqual([
      `t:${hash}`,
    ]);
    expect(await whoAmI(token)).toBe(401);
  });

  it('deleting a live session signals it; purging ended ones does not', async () => {
    const live = await login(t.app, 'adminA');
    const ended = await login(t.app, 'adminA');
    expect(await whoAmI(live)).toBe('加盟 一郎');
    await outsideSql(`UPDATE sessions SET revoked_at = now() WHERE token_hash = $1`, [hashToken(ended)]);
    expect(await outsideSql(`DELETE FROM sessions WHERE token_hash = $1`, [hashToken(ended)])).toEqual([]);
    expect(await outsideSql(`DELETE FROM sessions WHERE token_hash = $1`, [hashToken(live)])).toEqual([
      `t:${hashToken(live)}`,
    ]);
    expect(await whoAmI(live)).toBe(401);
  });

  it("a company's TOTP policy changed by SQL holds its sessions to the setup at once", async () => {
    const token = await login(t.app, 'managerA');
    expect((await callAs(t.app, token, carListCount, {})).status).toBe(200);
    expect(await outsideSql(`UPDATE companies SET require_totp = true WHERE company_id = $1`, [companyA])).toEqual([
      '*',
    ]);
    expect((await callAs(t.app, token, carListCount, {})).error.code).toBe('TOTP_SETUP_REQUIRED');
    await outsideSql(`UPDATE companies SET require_totp = false WHERE company_id = $1`, [companyA]);
  });
});
