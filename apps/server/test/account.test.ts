import {
  type CallRequest,
  fieldMessages,
  validationMessages as m,
  accountExistCheck,
  accountGetDetail,
  accountList,
  accountListCount,
} from '@fleet/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { companyA, companyB, createSignedInApp, unchecked, type FixtureAccount, type SignedInApp } from './helper.js';

/** account_list_count, account_list, account_get_detail, account_exist_check. */
let t: SignedInApp;
beforeAll(async () => {
  t = await createSignedInApp();
  // Twelve more common accounts in company A, for search, sort and paging.
  const { password_hash } = await t.db
    .selectFrom('accounts')
    .select('password_hash')
    .where('account_id', '=', 'staff-a')
    .executeTakeFirstOrThrow();
  const extra = Array.from({ length: 12 }, (_, i) => ({
    account_id: `extra-${String(i).padStart(2, '0')}`,
    name: `追加 ${i}${i === 3 ? ' 100%_off' : ''}`,
    email: `extra${i}@example.jp`,
    role: 2,
    company_id: companyA,
    password_hash,
    is_delete: i === 11,
  }));
  await t.db.insertInto('accounts').values(extra).execute();
});
afterAll(() => t?.close());

const call: SignedInApp['call'] = (...args) => t.call(...args);
const ids = async (body: CallRequest<typeof accountList>, who: FixtureAccount = 'superAdmin') => {
  const res = await call(accountList, { limit: 100, ...body }, who);
  expect(res.status, res.raw.body).toBe(200);
  return res.body.list.map((a) => a.account_id);
};
const count = async (body: CallRequest<typeof accountListCount>, who: FixtureAccount = 'superAdmin') =>
  (await call(accountListCount, body, who)).body.count;

describe('account_list and account_list_count', () => {
  it('answer 401 without a token and 403 to a common account', async () => {
    expect((await call(accountList, {})).status).toBe(401);
    expect((await call(accountListCount, {}, 'staffA')).status).toBe(403);
    expect((await call(accountList, {}, 'staffA')).status).toBe(403);
  });

  it('show the super admin every live account, sorted by account_id by default', async () => {
    const all = await ids({});
    expect(all).toHaveLength(5 + 11);
    expect(all).toEqual([...all].sort());
    expect(await count({})).toBe(16);
  });

  it('include deleted accounts on request', async () => {
    expect(await count({ isDelete: true })).toBe(17);
    expect(await ids({ isDelete: true })).toContain('extra-11');
  });

  it('search the chosen column as a case-insensitive substring, wildcards taken literally', async () => {
    expect(await ids({ search_item: '2', search_text: 'ADMIN-A@' })).toEqual(['admin-a']);
    expect(await ids({ search_item: '1', search_text: '%_' })).toEqual(['extra-03']);
    expect(await count({ search_item: '1', search_text: '%_' })).toBe(1);
    expect(await ids({ search_item: '1', search_text: '_' })).toEqual(['extra-03']);
  });

  it('search the role by number or Japanese label', async () => {
    expect(await ids({ search_item: '3', search_text: 'マネージャー' })).toEqual(['manager-a']);
    expect(await ids({ search_item: '3', search_text: '0' })).toEqual(['admin-a', 'admin-b', 'super-admin']);
    expect(await count({ search_item: '3', search_text: '該当なし' })).toBe(0);
  });

  it('sort both ways with account_id as the tiebreaker', async () => {
    const asc = await ids({ sorts: 'role asc' });
    const desc = await ids({ sorts: ['role desc'] });
    expect(asc.slice(0, 3)).toEqual(['admin-a', 'admin-b', 'super-admin']);
    expect(desc.slice(-3)).toEqual(['admin-a', 'admin-b', 'super-admin']);
    expect(desc[0]).toBe('extra-00');
    expect(await ids({ sorts: 'account_id desc' })).toEqual([...asc].sort().reverse());
  });

  it('page through exactly the rows the count announces', async () => {
    const total = await count({ search_item: '0', search_text: 'a' });
    const seen: string[] = [];
    for (let offset = 0; offset < total + 3; offset += 3)
      seen.push(...(await ids({ search_item: '0', search_text: 'a', offset, limit: 3 })));
    expect(seen).toHaveLength(total);
    expect(new Set(seen).size).toBe(total);
  });

  it('refuse a sort outside the whitelist and an unknown search column with 400', async () => {
    const bad = await call(accountList, { sorts: 'password_hash asc' }, 'superAdmin');
    expect(bad.status).toBe(400);
    expect(bad.error.errors).toEqual({ sorts: fieldMessages.sort });
    const item = await call(accountListCount, { search_item: '9', search_text: 'x' }, 'superAdmin');
    expect(item.error.errors).toEqual({ search_item: fieldMessages.searchItem });
    expect((await call(accountList, { limit: 0 }, 'superAdmin')).status).toBe(400);
  });

  it('filter by company for the super admin and force the own company for others', async () => {
    expect(await ids({ companyId: companyB })).toEqual(['admin-b']);
    const a = await ids({ companyId: companyB }, 'adminA');
    expect(a).toContain('admin-a');
    expect(a).not.toContain('admin-b');
    expect(await count({ companyId: companyB }, 'adminA')).toBe(a.length);
  });

  it('hide role 0 accounts from a manager', async () => {
    const list = await ids({}, 'managerA');
    expect(list).toContain('manager-a');
    expect(list).not.toContain('admin-a');
    expect(await count({}, 'managerA')).toBe(list.length);
  });
});

describe('account_get_detail', () => {
  it('answers the detail with the company name and no secrets', async () => {
    const res = await call(accountGetDetail, { account_id: 'manager-a' }, 'adminA');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      account_id: 'manager-a',
      role: 1,
      company_id: companyA,
      company_name: '株式会社テストA',
      isDelete: false,
    });
    expect(res.body).not.toContain('scrypt');
  });

  it('lets everyone read their own account only', async () => {
    expect((await call(accountGetDetail, { account_id: 'staff-a' }, 'staffA')).status).toBe(200);
    expect((await call(accountGetDetail, { account_id: 'manager-a' }, 'staffA')).status).toBe(404);
  });

  it('answers 404 across companies and for role 0 accounts asked by a manager', async () => {
    expect((await call(accountGetDetail, { account_id: 'admin-b' }, 'adminA')).status).toBe(404);
    expect((await call(accountGetDetail, { account_id: 'admin-a' }, 'managerA')).status).toBe(404);
    expect((await call(accountGetDetail, { account_id: 'admin-b' }, 'superAdmin')).status).toBe(200);
  });

  it('answers 401 without a token and 400 without an id', async () => {
    expect((await call(accountGetDetail, { account_id: 'staff-a' })).status).toBe(401);
    const res = await call(accountGetDetail, unchecked({}), 'adminA');
    expect(res.status).toBe(400);
    expect(res.error.errors).toEqual({ account_id: m.required });
  });
});

describe('account_exist_check', () => {
  it('finds ids and emails (case-insensitively), deleted ones included', async () => {
    const check = async (check_item: 'account_id' | 'email', check_value: string) =>
      (await call(accountExistCheck, { check_item, check_value }, 'managerA')).body.isExist;
    expect(await check('account_id', 'admin-b')).toBe(true);
    expect(await check('account_id', 'extra-11')).toBe(true);
    expect(await check('account_id', 'nobody-here')).toBe(false);
    expect(await check('email', 'SUPER@example.jp')).toBe(true);
    expect(await check('email', 'none@example.jp')).toBe(false);
  });

  it('is for managers only and validates its input', async () => {
    expect((await call(accountExistCheck, { check_item: 'account_id', check_value: 'x' })).status).toBe(401);
    expect((await call(accountExistCheck, { check_item: 'account_id', check_value: 'x' }, 'staffA')).status).toBe(403);
    const bad = await call(accountExistCheck, unchecked({ check_item: 'password', check_value: '' }), 'adminA');
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.error.errors ?? {})).toEqual(['check_item', 'check_value']);
  });
});
