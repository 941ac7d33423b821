import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { breakChannelForTest, subscribeChannel } from '../src/db/channel.js';
import { openDatabase, type Database, type Db } from '../src/db/database.js';
import { SESSION_CHANNEL, sessionsChanged } from '../src/sessions/session-cache.js';
import { hashToken } from '../src/sessions/token.js';
import { urlForDatabase } from './databases.js';
import {
  accountAdd,
  accountDelete,
  accountUpdate,
  companyListCount,
  logout,
  me as meCall,
  passwordReset,
} from '@fleet/contract';
import { callAs, companyA, createTestApp, login, seedFixtures, type TestApp } from './helper.js';

/**
 * The in-process session cache (issue #19): a signed-in call is answered from
 * memory, and every change to a session or its account's authority is seen at
 * once, on this instance and (PostgreSQL) on a second one sharing the database.
 */
const onPostgres = !!inject('databaseUrl');
const silent = { warn: () => undefined };

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { SESSION_CACHE: 'true' } });
  await seedFixtures(t.db);
});
afterAll(() => t?.close());

/** Resolves once the session channel of this database handle listens (PostgreSQL; at once on PGlite). */
async function listening(db: Db) {
  const sub = subscribeChannel(db, SESSION_CHANNEL, silent, { message: () => undefined });
  await sub.listening();
  return sub;
}

/**
 * Resolves once this database handle's session channel carried `payload` (an instance hears a change
 * from another one when the NOTIFY reaches it: before any later request over the network, not
 * necessarily before an injected one, which does no I/O at all on a cache hit).
 */
async function heard(db: Db, payload: string) {
  let done!: () => void;
  const got = new Promise<void>((resolve) => (done = resolve));
  const sub = subscribeChannel(db, SESSION_CHANNEL, silent, { message: (p) => p === payload && done() });
  await sub.listening();
  return {
    wait: async () => {
      const timer = setTimeout(() => done(), 10_000);
      await got;
      clearTimeout(timer);
      await sub.close();
    },
  };
}

const me = (app: FastifyInstance, token: string) => callAs(app, token, meCall, {});
const nameOf = async (app: FastifyInstance, token: string) => {
  const res = await me(app, token);
  expect(res.status, res.raw.body).toBe(200);
  return res.body.name;
};
/**
 * A change nobody signals: the database's own signal (the session_change_signals triggers, covered by
 * session-cache-signals.test.ts) is held back for this write (replica mode skips ordinary triggers), so these
 * tests see what the app's signals alone do.
 */
const rename = (db: Db, accountId: string, name: string) =>
  db.transaction().execute(async (trx) => {
    await sql`SET LOCAL session_replication_role = replica`.execute(trx);
    await trx.updateTable('accounts').set({ name }).where('account_id', '=', accountId).execute();
  });

describe('the cache on one instance', () => {
  it('answers a signed-in call from memory until the account is said to have changed', async () => {
    const sub = await listening(t.db);
    const token = await login(t.app, 'staffA');
    expect(await nameOf(t.app, token)).toBe('一般 次郎');
    // Written behind the server's back (no signal): the cached session still answers.
    await rename(t.db, 'staff-a', '書き換え 済み');
    expect(await nameOf(t.app, token)).toBe('一般 次郎');
    await sessionsChanged(t.db, { accountId: 'staff-a' });
    expect(await nameOf(t.app, token)).toBe('書き換え 済み');
    await rename(t.db, 'staff-a', '一般 次郎');
    await sessionsChanged(t.db, 'all');
    expect(await nameOf(t.app, token)).toBe('一般 次郎');
    await sub.close();
  });

  it('sees a sign-out, a new role and a deletion at once', async () => {
    const sub = await listening(t.db);
    const admin = await login(t.app, 'adminA');
    const add = await callAs(t.app, admin, accountAdd, {
      info: {
        account_id: 'cache-01',
        name: 'キャッシュ 一',
        email: 'cache-01@example.jp',
        role: 1,
        company_id: null,
        password: 'new-pass-123',
        password_confirm: 'new-pass-123',
      },
    });
    expect(add.status, add.raw.body).toBe(200);

    const signedOut = await login(t.app, 'cache-01', 'new-pass-123');
    expect((await me(t.app, signedOut)).status).toBe(200);
    expect((await callAs(t.app, signedOut, logout, {})).status).toBe(200);
    expect((await me(t.app, signedOut)).status).toBe(401);

    const reroled = await login(t.app, 'cache-01', 'new-pass-123');
    expect((await me(t.app, reroled)).status).toBe(200);
    const edit = await callAs(t.app, admin, accountUpdate, {
      info: {
        account_id: 'cache-01',
        name: 'キャッシュ 一',
        email: 'cache-01@example.jp',
        role: 2,
        company_id: companyA,
      },
    });
    expect(edit.status, edit.raw.body).toBe(200);
    expect((await me(t.app, reroled)).status).toBe(401);

    const deleted = await login(t.app, 'cache-01', 'new-pass-123');
    expect((await me(t.app, deleted)).status).toBe(200);
    expect((await callAs(t.app, admin, accountDelete, { account_id: 'cache-01', isDelete: true })).status).toBe(200);
    expect((await me(t.app, deleted)).status).toBe(401);
    await sub.close();
  });
});

describe.runIf(onPostgres)('across server instances (PostgreSQL NOTIFY)', () => {
  let second: Database;
  let other: FastifyInstance;
  beforeAll(async () => {
    const { rows } = await sql<{ name: string }>`SELECT current_database() AS name`.execute(t.db);
    second = await openDatabase({ url: urlForDatabase(inject('databaseUrl'), rows[0]!.name), poolSize: 2 });
    other = await buildApp({
      db: second.db,
      config: loadConfig({
        NODE_ENV: 'test',
        LOG_LEVEL: 'silent',
        DATABASE_URL: inject('databaseUrl'),
        SESSION_CACHE: 'true',
      }),
      logger: false,
    });
    await other.ready();
  });
  afterAll(async () => {
    await other?.close();
    await second?.close();
  });

  it('a sign-out, a password change and a TOTP policy made on the first instance hold on the second at once', async () => {
    const subs = [await listening(t.db), await listening(second.db)];
    const token = await login(t.app, 'managerA');
    expect(await nameOf(other, token)).toBe('管理 花子');
    // The second instance holds it in memory now: what the first one says reaches it.
    await rename(t.db, 'manager-a', '別名');
    expect(await nameOf(other, token)).toBe('管理 花子');
    let h = await heard(second.db, 'a:manager-a');
    await sessionsChanged(t.db, { accountId: 'manager-a' });
    await h.wait();
    expect(await nameOf(other, token)).toBe('別名');
    await rename(t.db, 'manager-a', '管理 花子');
    await sessionsChanged(t.db, { accountId: 'manager-a' });

    h = await heard(second.db, `t:${hashToken(token)}`);
    expect((await callAs(t.app, token, logout, {})).status).toBe(200);
    await h.wait();
    expect((await me(other, token)).status).toBe(401);

    const admin = await login(t.app, 'adminA');
    const staff = await login(t.app, 'staffA');
    expect((await me(other, staff)).status).toBe(200);
    h = await heard(second.db, 'a:staff-a');
    const reset = await callAs(t.app, admin, passwordReset, {
      info: { account_id: 'staff-a', password: 'other-pass-123', password_confirm: 'other-pass-123' },
    });
    expect(reset.status, reset.raw.body).toBe(200);
    await h.wait();
    expect((await me(other, staff)).status).toBe(401);

    // A company that now requires TOTP holds its accounts without one to the setup, on every instance.
    const manager = await login(t.app, 'managerA');
    expect((await me(other, manager)).status).toBe(200);
    expect((await callAs(other, manager, companyListCount, {})).status).not.toBe(401);
    await t.db.updateTable('companies').set({ require_totp: true }).where('company_id', '=', companyA).execute();
    h = await heard(second.db, '*');
    await sessionsChanged(t.db, 'all');
    await h.wait();
    expect((await callAs(other, manager, companyListCount, {})).error).toMatchObject({
      code: 'TOTP_SETUP_REQUIRED',
    });
    await t.db.updateTable('companies').set({ require_totp: false }).where('company_id', '=', companyA).execute();
    await sessionsChanged(t.db, 'all');
    await Promise.all(subs.map((s) => s.close()));
  });

  it('serves nothing from memory while its LISTEN connection is lost, and caches again once it is back', async () => {
    const sub = await listening(second.db);
    const token = await login(t.app, 'adminB');
    expect(await nameOf(other, token)).toBe('別社 三郎');
    breakChannelForTest(second.db, SESSION_CHANNEL);
    // A change the second instance cannot hear of (no signal at all): it reads the database.
    await rename(t.db, 'admin-b', '切断 中');
    expect(await nameOf(other, token)).toBe('切断 中');
    await t.db
      .updateTable('sessions')
      .set({ revoked_at: sql`now()` })
      .where('account_id', '=', 'admin-b')
      .execute();
    expect((await me(other, token)).status).toBe(401);
    await rename(t.db, 'admin-b', '別社 三郎');

    // Reconnected (the test holds the retry until it asks): cached again, and told again.
    await sub.listening();
    const again = await login(t.app, 'adminB');
    expect(await nameOf(other, again)).toBe('別社 三郎');
    await rename(t.db, 'admin-b', '再接続 後');
    expect(await nameOf(other, again)).toBe('別社 三郎');
    const h = await heard(second.db, 'a:admin-b');
    await sessionsChanged(t.db, { accountId: 'admin-b' });
    await h.wait();
    expect(await nameOf(other, again)).toBe('再接続 後');
    await rename(t.db, 'admin-b', '別社 三郎');
    await sessionsChanged(t.db, { accountId: 'admin-b' });
    await sub.close();
  });
});
