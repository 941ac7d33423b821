import {
  accountAdd,
  accountDelete,
  accountGetDetail,
  accountUpdate,
  passwordReset,
  accountMessages,
  login as loginCall,
  validationMessages as m,
  type Call,
  type CallRequest,
} from '@fleet/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  accounts,
  callAs,
  companyA,
  companyB,
  createSignedInApp,
  FIXTURE_PASSWORD,
  login,
  type FixtureAccount,
  unchecked,
  type SignedInApp,
} from './helper.js';

/** account_add, account_update, account_delete, password_reset. */
let t: SignedInApp;
beforeAll(async () => {
  t = await createSignedInApp();
});
afterAll(() => t?.close());

/** A call as a fixture account, or as the holder of a token signed in during the test. */
const call = <C extends Call>(c: C, body: NoInfer<CallRequest<C>>, who?: FixtureAccount | string) =>
  callAs(t.app, who && (t.tokens[who as FixtureAccount] ?? who), c, body);
const newAccount = (id: string, over: object = {}) => ({
  account_id: id,
  name: `新規 ${id}`,
  email: `${id}@example.jp`,
  role: 2,
  company_id: null,
  password: 'new-pass-123',
  password_confirm: 'new-pass-123',
  ...over,
});
const row = (id: string) => t.db.selectFrom('accounts').selectAll().where('account_id', '=', id).executeTakeFirst();
const isLive = async (token: string) => (await call(accountGetDetail, { account_id: 'x-none' }, token)).status !== 401;

describe('account_add', () => {
  it('registers an account in the own company (company forced), who can then sign in', async () => {
    const res = await call(accountAdd, { info: newAccount('added-01', { role: '1' }) }, 'adminA');
    expect(res.status, res.raw.body).toBe(200);
    expect(res.body).toEqual({ ok: true, account_id: 'added-01' });
    expect(await row('added-01')).toMatchObject({ role: 1, company_id: companyA, is_delete: false });
    expect((await call(loginCall, { username: 'added-01@example.jp', password: 'new-pass-123' })).status).toBe(200);
  });

  it('answers per-field Japanese errors and writes nothing', async () => {
    const info = newAccount('added-02', { name: '', email: 'no-at', password: 'short', password_confirm: 'other' });
    const res = await call(accountAdd, { info }, 'adminA');
    expect(res.status).toBe(400);
    expect(res.error.errors).toEqual({
      'info.name': m.required,
      'info.email': m.email,
      'info.password': m.min,
      'info.password_confirm': m.confirmed,
    });
    expect(await row('added-02')).toBeUndefined();
  });

  it('refuses duplicates of id and email (any case) with 409', async () => {
    const dupId = await call(accountAdd, { info: newAccount('staff-a') }, 'superAdmin');
    expect(dupId.status).toBe(409);
    expect(dupId.error.errors).toEqual({ account_id: accountMessages.accountIdInUse });
    const dupEmail = await call(
      accountAdd,
      { info: newAccount('added-03', { email: 'STAFF-A@example.jp' }) },
      'superAdmin',
    );
    expect(dupEmail.status).toBe(409);
    expect(dupEmail.error.errors).toEqual({ email: accountMessages.emailInUse });
  });

  it('keeps managers to roles 1-2 and company users to their company', async () => {
    const role0 = await call(accountAdd, { info: newAccount('added-04', { role: 0 }) }, 'managerA');
    expect(role0.status).toBe(403);
    expect(role0.error.errors).toEqual({ role: accountMessages.roleNotAllowed });
    const other = await call(accountAdd, { info: newAccount('added-05', { company_id: companyB }) }, 'adminA');
    expect(other.status).toBe(403);
    expect((await call(accountAdd, { info: newAccount('added-06') }, 'staffA')).status).toBe(403);
    expect((await call(accountAdd, { info: newAccount('added-07') })).status).toBe(401);
    for (const id of ['added-04', 'added-05', 'added-06', 'added-07']) expect(await row(id)).toBeUndefined();
  });

  it('lets the super admin choose an existing company only', async () => {
    expect(
      (await call(accountAdd, { info: newAccount('added-08', { company_id: companyB, role: 0 }) }, 'superAdmin'))
        .status,
    ).toBe(200);
    const res = await call(
      accountAdd,
      { info: newAccount('added-09', { company_id: 'no-such-company' }) },
      'superAdmin',
    );
    expect(res.status).toBe(400);
    expect(res.error.errors).toEqual({ company_id: accountMessages.companyMissing });
  });
});

describe('account_update', () => {
  const edit = (id: string, over: object = {}) => ({
    account_id: id,
    name: '更新 済み',
    email: `${id}@example.jp`,
    role: 2,
    company_id: companyA,
    ...over,
  });

  it('updates name, email and role; a new role ends the sessions of that account', async () => {
    await call(accountAdd, { info: newAccount('upd-01', { role: 1 }) }, 'adminA');
    const its = await login(t.app, 'upd-01', 'new-pass-123');
    const res = await call(accountUpdate, { info: edit('upd-01', { email: 'UPD-new@example.jp' }) }, 'managerA');
    expect(res.status, res.raw.body).toBe(200);
    expect(await row('upd-01')).toMatchObject({ name: '更新 済み', email: 'UPD-new@example.jp', role: 2 });
    expect(await isLive(its)).toBe(false);
  });

  it('keeps the password when left empty and changes it when given', async () => {
    await call(accountAdd, { info: newAccount('upd-02') }, 'adminA');
    const before = (await row('upd-02'))!.password_hash;
    await call(accountUpdate, { info: edit('upd-02') }, 'adminA');
    expect((await row('upd-02'))!.password_hash).toBe(before);
    const res = await call(
      accountUpdate,
      { info: edit('upd-02', { password: 'changed-pass', password_confirm: 'changed-pass' }) },
      'adminA',
    );
    expect(res.status).toBe(200);
    expect((await call(loginCall, { username: 'upd-02', password: 'changed-pass' })).status).toBe(200);
  });

  it('refuses a mismatched confirmation with 400', async () => {
    const res = await call(
      accountUpdate,
      { info: edit('staff-a', { password: 'changed-pass', password_confirm: 'x' }) },
      'adminA',
    );
    expect(res.status).toBe(400);
    expect(res.error.errors).toEqual({ 'info.password_confirm': m.confirmed });
  });

  it('never lets anyone change their own role or company', async () => {
    const res = await call(accountUpdate, { info: edit('manager-a', { role: 2 }) }, 'managerA');
    expect(res.status).toBe(403);
    expect(res.error.errors).toEqual({ role: accountMessages.selfRole });
    const superSelf = edit('super-admin', { role: 0, company_id: companyA, email: 'super@example.jp' });
    expect((await call(accountUpdate, { info: superSelf }, 'superAdmin')).status).toBe(403);
    expect(await row('super-admin')).toMatchObject({ role: 0, company_id: null });
  });

  it('answers 404 for role 0 accounts to a manager and across companies, 403 to common users', async () => {
    expect((await call(accountUpdate, { info: edit('admin-a', { role: 0 }) }, 'managerA')).status).toBe(404);
    expect(
      (await call(accountUpdate, { info: edit('admin-b', { role: 0, company_id: companyB }) }, 'adminA')).status,
    ).toBe(404);
    expect((await call(accountUpdate, { info: edit('staff-a') }, 'staffA')).status).toBe(403);
    expect((await call(accountUpdate, { info: edit('staff-a', { role: 0 }) }, 'managerA')).status).toBe(403);
    expect(await row('admin-b')).toMatchObject({ name: accounts.adminB.name });
  });
});

describe('account_delete', () => {
  it('deletes logically (sessions end, login fails) and restores', async () => {
    await call(accountAdd, { info: newAccount('del-01') }, 'adminA');
    const its = await login(t.app, 'del-01', 'new-pass-123');
    expect((await call(accountDelete, { account_id: 'del-01', isDelete: true }, 'managerA')).status).toBe(200);
    expect(await row('del-01')).toMatchObject({ is_delete: true });
    expect(await isLive(its)).toBe(false);
    expect((await call(loginCall, { username: 'del-01', password: 'new-pass-123' })).status).toBe(401);
    expect((await call(accountDelete, { account_id: 'del-01', isDelete: false }, 'managerA')).status).toBe(200);
    expect((await call(loginCall, { username: 'del-01', password: 'new-pass-123' })).status).toBe(200);
  });

  it('refuses deleting oneself, other companies, and role 0 for a manager', async () => {
    const self = await call(accountDelete, { account_id: 'admin-a', isDelete: true }, 'adminA');
    expect(self.status).toBe(403);
    expect(self.error.message).toBe(accountMessages.selfDelete);
    expect((await call(accountDelete, { account_id: 'admin-b', isDelete: true }, 'adminA')).status).toBe(404);
    expect((await call(accountDelete, { account_id: 'admin-a', isDelete: true }, 'managerA')).status).toBe(404);
    expect((await call(accountDelete, { account_id: 'manager-a', isDelete: true }, 'staffA')).status).toBe(403);
    expect((await call(accountDelete, unchecked({ account_id: 'manager-a' }), 'adminA')).error.errors).toEqual({
      isDelete: expect.any(String),
    });
    expect((await call(accountDelete, { account_id: 'manager-a', isDelete: true })).status).toBe(401);
    expect(await row('admin-b')).toMatchObject({ is_delete: false });
  });
});

describe('password_reset', () => {
  const info = (over: object = {}) => ({ password: 'fresh-pass-99', password_confirm: 'fresh-pass-99', ...over });

  it('changes the own password with the current one; other sessions end, this one stays', async () => {
    await call(
      accountAdd,
      { info: newAccount('pw-01', { password: FIXTURE_PASSWORD, password_confirm: FIXTURE_PASSWORD }) },
      'adminA',
    );
    const first = await login(t.app, 'pw-01');
    const second = await login(t.app, 'pw-01');
    const res = await call(passwordReset, { info: info({ current_password: FIXTURE_PASSWORD }) }, first);
    expect(res.status, res.raw.body).toBe(200);
    expect(await isLive(first)).toBe(true);
    expect(await isLive(second)).toBe(false);
    expect((await call(loginCall, { username: 'pw-01', password: 'fresh-pass-99' })).status).toBe(200);
  });

  it("needs the right current password for one's own account", async () => {
    const missing = await call(passwordReset, { info: info() }, 'staffA');
    expect(missing.status).toBe(400);
    expect(missing.error.errors).toEqual({ current_password: m.required });
    const wrong = await call(passwordReset, { info: info({ current_password: 'not-it-at-all' }) }, 'staffA');
    expect(wrong.error.errors).toEqual({ current_password: accountMessages.currentPasswordWrong });
    const mismatch = await call(
      passwordReset,
      { info: info({ current_password: FIXTURE_PASSWORD, password_confirm: 'x' }) },
      'staffA',
    );
    expect(mismatch.error.errors).toEqual({ 'info.password_confirm': m.confirmed });
  });

  it("lets a manager set a managed account's password without the current one, ending its sessions", async () => {
    await call(accountAdd, { info: newAccount('pw-02') }, 'adminA');
    const its = await login(t.app, 'pw-02', 'new-pass-123');
    expect((await call(passwordReset, { info: info({ account_id: 'pw-02' }) }, 'managerA')).status).toBe(200);
    expect(await isLive(its)).toBe(false);
    expect((await call(loginCall, { username: 'pw-02', password: 'fresh-pass-99' })).status).toBe(200);
  });

  it("refuses others' passwords to common users, other companies and role 0 for managers", async () => {
    expect((await call(passwordReset, { info: info({ account_id: 'manager-a' }) }, 'staffA')).status).toBe(403);
    expect((await call(passwordReset, { info: info({ account_id: 'admin-a' }) }, 'managerA')).status).toBe(404);
    expect((await call(passwordReset, { info: info({ account_id: 'admin-b' }) }, 'adminA')).status).toBe(404);
    expect((await call(passwordReset, { info: info() })).status).toBe(401);
    expect((await call(loginCall, { username: 'admin-b', password: FIXTURE_PASSWORD })).status).toBe(200);
  });
});
