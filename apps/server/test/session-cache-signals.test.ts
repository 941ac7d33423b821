import { carListCount, me } from '@fleet/contract';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { SESSION_CHANNEL } from '../src/sessions/session-cache.js';
import { hashToken } from '../src/sessions/token.js';
import { outsideSql, type OutsideSql } from './outside-sql.js';
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
  let outside: OutsideSql;

  beforeAll(async () => {
    t = await createTestApp({ env: { SESSION_CACHE: 'true' } });
    await seedFixtures(t.db);
    outside = await outsideSql(t.db, SESSION_CHANNEL);
  });
  afterAll(async () => {
    await outside?.close();
    await t?.close();
  });

  const whoAmI = async (token: string) => {
    const res = await callAs(t.app, token, me);
    return res.status === 200 ? res.body.name : res.status;
  };

  it('an account renamed, re-roled or deleted by SQL is read again at once', async () => {
    const token = await login(t.app, 'staffA');
    expect(await whoAmI(token)).toBe('一般 次郎'); // cached now
    expect(await outside.run(`UPDATE accounts SET name = '外から 変更' WHERE account_id = 'staff-a'`)).toEqual([
      'a:staff-a',
    ]);
    expect(await whoAmI(token)).toBe('外から 変更');
    expect(await outside.run(`UPDATE accounts SET is_delete = true WHERE account_id = 'staff-a'`)).toEqual([
      'a:staff-a',
    ]);
    expect(await whoAmI(token)).toBe(401);
    await outside.run(`UPDATE accounts SET is_delete = false, name = '一般 次郎' WHERE account_id = 'staff-a'`);
  });

  it('a session revoked by SQL is refused at once; sliding its idle time says nothing', async () => {
    const token = await login(t.app, 'managerA');
    const hash = hashToken(token);
    expect(await whoAmI(token)).toBe('管理 花子');
    expect(await outside.run(`UPDATE sessions SET last_seen_at = now() WHERE token_hash = $1`, [hash])).toEqual([]);
    expect(await outside.run(`UPDATE sessions SET revoked_at = now() WHERE token_hash = $1`, [hash])).toEqual([
      `t:${hash}`,
    ]);
    expect(await whoAmI(token)).toBe(401);
  });

  it('deleting a live session signals it; purging ended ones does not', async () => {
    const live = await login(t.app, 'adminA');
    const ended = await login(t.app, 'adminA');
    expect(await whoAmI(live)).toBe('加盟 一郎');
    await outside.run(`UPDATE sessions SET revoked_at = now() WHERE token_hash = $1`, [hashToken(ended)]);
    expect(await outside.run(`DELETE FROM sessions WHERE token_hash = $1`, [hashToken(ended)])).toEqual([]);
    expect(await outside.run(`DELETE FROM sessions WHERE token_hash = $1`, [hashToken(live)])).toEqual([
      `t:${hashToken(live)}`,
    ]);
    expect(await whoAmI(live)).toBe(401);
  });

  it("a company's TOTP policy changed by SQL holds its sessions to the setup at once", async () => {
    const token = await login(t.app, 'managerA');
    expect((await callAs(t.app, token, carListCount, {})).status).toBe(200);
    expect(await outside.run(`UPDATE companies SET require_totp = true WHERE company_id = $1`, [companyA])).toEqual([
      '*',
    ]);
    expect((await callAs(t.app, token, carListCount, {})).error.code).toBe('TOTP_SETUP_REQUIRED');
    await outside.run(`UPDATE companies SET require_totp = false WHERE company_id = $1`, [companyA]);
  });
});
