import { randomBytes, scryptSync } from 'node:crypto';
import { login as loginCall, sessionMessages } from '@fleet/contract';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { needsRehash } from '../src/credentials/password.js';
import { hashToken } from '../src/sessions/token.js';
import { FIXTURE_PASSWORD, accounts, callAs, createTestApp, login, seedFixtures, type TestApp } from './helper.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await seedFixtures(t.db);
});
afterAll(() => t?.close());

const countSessions = async () =>
  Number(
    (
      await t.db
        .selectFrom('sessions')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

describe(loginCall.path, () => {
  it('signs in by account id and answers exactly {id, username, role, token, company_id}', async () => {
    const res = await callAs(t.app, undefined, loginCall, { username: 'manager-a', password: FIXTURE_PASSWORD });
    expect(res.status).toBe(200);
    // The keys as sent: the parsed body would have the contract's keys whatever the server sent.
    expect(Object.keys(res.raw.json<object>()).sort()).toEqual(['company_id', 'id', 'role', 'token', 'username']);
    expect(res.body).toMatchObject({
      id: 'manager-a',
      username: accounts.managerA.name,
      role: 1,
      company_id: 'company-a',
    });
    expect(res.body.token.length).toBeGreaterThanOrEqual(43);
  });

  it('stores only a hash of the token', async () => {
    const token = await login(t.app, 'staffA');
    const rows = await t.db.selectFrom('sessions').select('token_hash').where('account_id', '=', 'staff-a').execute();
    expect(rows.map((r) => r.token_hash)).toContain(hashToken(token));
    expect(rows.map((r) => r.token_hash)).not.toContain(token);
  });

  it('answers company_id null for the super admin', async () => {
    const res = await callAs(t.app, undefined, loginCall, { username: 'super-admin', password: FIXTURE_PASSWORD });
    expect(res.body).toMatchObject({ id: 'super-admin', role: 0, company_id: null });
  });

  it('signs in by email, whatever its case', async () => {
    const res = await callAs(t.app, undefined, loginCall, {
      username: 'Admin-A@Example.JP',
      password: FIXTURE_PASSWORD,
    });
    expect(res.status).toBe(200);
    expect(res.body.id).toBe('admin-a');
  });

  it.each([
    ['a wrong password', 'admin-a', 'wrong-password'],
    ['an unknown account', 'nobody-here', FIXTURE_PASSWORD],
  ])('refuses %s with 401 and creates no session', async (_label, username, password) => {
    const before = await countSessions();
    const res = await callAs(t.app, undefined, loginCall, { username, password });
    expect(res.status).toBe(401);
    expect(res.raw.json()).toEqual({
      code: 'UNAUTHORIZED',
      message: 'ログインに失敗しました。ログイン情報を確認してください。',
    });
    expect(await countSessions()).toBe(before);
  });

  it('refuses a deleted account', async () => {
    await t.db
      .insertInto('accounts')
      .values({
        account_id: 'gone-a',
        name: '退職 者',
        email: 'gone@example.jp',
        role: 2,
        company_id: 'company-a',
        password_hash: inject('fixturePasswordHash'),
        is_delete: true,
      })
      .execute();
    const res = await callAs(t.app, undefined, loginCall, { username: 'gone-a', password: FIXTURE_PASSWORD });
    expect(res.status).toBe(401);
    expect(res.error.message).toBe(sessionMessages.loginFailed);

    await t.db.updateTable('accounts').set({ is_delete: false }).where('account_id', '=', 'gone-a').execute();
    expect((await callAs(t.app, undefined, loginCall, { username: 'gone-a', password: FIXTURE_PASSWORD })).status).toBe(
      200,
    );
  });

  it('upgrades a hash made with older scrypt parameters on a successful login', async () => {
    const salt = randomBytes(16);
    // Cheaper than what this app hashes with (NODE_ENV=test's cost; sessions.test.ts checks the production one).
    const log2N = t.config.passwordHashLog2N - 2;
    const key = scryptSync(FIXTURE_PASSWORD, salt, 32, { N: 2 ** log2N, r: 8, p: 1 });
    const oldHash = ['scrypt', log2N, 8, 1, salt.toString('base64'), key.toString('base64')].join('$');
    await t.db
      .insertInto('accounts')
      .values({
        account_id: 'old-hash',
        name: '旧 方式',
        email: 'old@example.jp',
        role: 2,
        company_id: 'company-a',
        password_hash: oldHash,
      })
      .execute();

    await login(t.app, 'old-hash');
    const row = await t.db
      .selectFrom('accounts')
      .select('password_hash')
      .where('account_id', '=', 'old-hash')
      .executeTakeFirstOrThrow();
    expect(row.password_hash).not.toBe(oldHash);
    expect(needsRehash(row.password_hash, t.config.passwordHashLog2N)).toBe(false);
    await login(t.app, 'old-hash');
  });
});
