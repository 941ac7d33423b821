import {
  type CallRequest,
  companyMessages,
  fieldMessages,
  validationMessages as m,
  companyAdd,
  companyDelete,
  companyGetDetail,
  companyList,
  companyListCount,
  companyUpdate,
} from '@fleet/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { companyA, companyB, createSignedInApp, unchecked, type SignedInApp } from './helper.js';

/** company_* calls: the super admin's alone. */
let t: SignedInApp;
beforeAll(async () => {
  t = await createSignedInApp(['superAdmin', 'adminA']);
  const extra = Array.from({ length: 25 }, (_, i) => ({
    company_id: `co-${String(i).padStart(2, '0')}`,
    company_name: `加盟店${String(25 - i).padStart(2, '0')}`,
    address: i % 2 ? '東京都港区' : '神奈川県横浜市',
    email: `info${i}@Shop.example.jp`,
    is_delete: i === 24,
  }));
  await t.db.insertInto('companies').values(extra).execute();
});
afterAll(() => t?.close());

const call: SignedInApp['call'] = (...args) => t.call(...args);
const ids = async (body: CallRequest<typeof companyList>) => {
  const res = await call(companyList, body, 'superAdmin');
  expect(res.status, res.raw.body).toBe(200);
  return res.body.list.map((c) => c.company_id);
};
const count = async (body: CallRequest<typeof companyListCount>) =>
  (await call(companyListCount, body, 'superAdmin')).body.count;
const company = (id: string, over: object = {}) => ({
  company_id: id,
  company_name: '株式会社新規',
  name: '担当 太郎',
  address: '東京都千代田区',
  phone: '03-1234-5678',
  email: 'new@example.jp',
  ...over,
});
const row = (id: string) => t.db.selectFrom('companies').selectAll().where('company_id', '=', id).executeTakeFirst();

describe('company_list and company_list_count', () => {
  it('serve the dropdown: up to 1000 rows sorted by company_id asc', async () => {
    const list = await ids({ offset: 0, limit: 1000, sorts: 'company_id asc' });
    expect(list).toHaveLength(26);
    expect(list).toEqual([...list].sort());
    expect(await count({})).toBe(26);
    expect((await call(companyList, { limit: 1001 }, 'superAdmin')).status).toBe(400);
  });

  it('default to 20 rows and page through exactly the counted rows', async () => {
    expect(await ids({})).toHaveLength(20);
    const first = await ids({ limit: 20, sorts: 'company_name desc' });
    const rest = await ids({ offset: 20, limit: 20, sorts: 'company_name desc' });
    expect(new Set([...first, ...rest]).size).toBe(26);
    const shops = { search_item: '1', search_text: '加盟店', limit: 100 };
    expect((await ids({ ...shops, sorts: 'company_name desc' }))[0]).toBe('co-00');
    expect((await ids({ ...shops, sorts: 'company_name asc' }))[0]).toBe('co-23');
  });

  it('search each column, case-insensitively', async () => {
    expect(await count({ search_item: '3', search_text: '港区' })).toBe(12);
    expect(await ids({ search_item: '5', search_text: 'INFO1', limit: 100 })).toEqual([
      'co-01',
      'co-10',
      'co-11',
      'co-12',
      'co-13',
      'co-14',
      'co-15',
      'co-16',
      'co-17',
      'co-18',
      'co-19',
    ]);
    expect(await ids({ search_item: '1', search_text: 'テストB' })).toEqual([companyB]);
  });

  it('include deleted companies on request', async () => {
    expect(await count({ isDelete: true })).toBe(27);
    expect(await ids({ isDelete: true, search_item: '0', search_text: 'co-24' })).toEqual(['co-24']);
  });

  it('refuse a sort outside the whitelist', async () => {
    const res = await call(companyList, { sorts: 'is_delete asc' }, 'superAdmin');
    expect(res.status).toBe(400);
    expect(res.error.errors).toEqual({ sorts: fieldMessages.sort });
  });

  it('answer 401 without a token and 403 to everyone but the super admin', async () => {
    expect((await call(companyList, {})).status).toBe(401);
    expect((await call(companyList, {}, 'adminA')).status).toBe(403);
    expect((await call(companyListCount, {}, 'adminA')).status).toBe(403);
  });
});

describe('company_get_detail', () => {
  it('answers the company with its live accounts, customers and vehicles counted', async () => {
    const res = await call(companyGetDetail, { company_id: companyA }, 'superAdmin');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      company_id: companyA,
      company_name: '株式会社テストA',
      account_count: 3,
      user_count: 1,
      car_count: 1,
      isDelete: false,
    });
  });

  it('answers 404, 403 and 401 where due', async () => {
    expect((await call(companyGetDetail, { company_id: 'nope' }, 'superAdmin')).status).toBe(404);
    expect((await call(companyGetDetail, { company_id: companyA }, 'adminA')).status).toBe(403);
    expect((await call(companyGetDetail, { company_id: companyA })).status).toBe(401);
  });
});

describe('company_add and company_update', () => {
  it('registers and updates a company', async () => {
    const add = await call(companyAdd, { info: company('new-co') }, 'superAdmin');
    expect(add.status, add.raw.body).toBe(200);
    expect(add.body).toEqual({ ok: true, company_id: 'new-co' });
    const upd = await call(
      companyUpdate,
      { info: company('new-co', { company_name: '株式会社改名', email: '' }) },
      'superAdmin',
    );
    expect(upd.status).toBe(200);
    expect(await row('new-co')).toMatchObject({ company_name: '株式会社改名', email: '', phone: '03-1234-5678' });
  });

  it('answers per-field Japanese errors and writes nothing', async () => {
    const res = await call(
      companyAdd,
      { info: company('bad-co', { company_name: ' ', email: 'x', phone: 'tel' }) },
      'superAdmin',
    );
    expect(res.status).toBe(400);
    expect(res.error.errors).toEqual({
      'info.company_name': m.required,
      'info.email': m.email,
      'info.phone': fieldMessages.phone,
    });
    expect(await row('bad-co')).toBeUndefined();
    expect((await call(companyUpdate, { info: company(companyB, { company_name: '' }) }, 'superAdmin')).status).toBe(
      400,
    );
    expect(await row(companyB)).toMatchObject({ company_name: '株式会社テストB' });
  });

  it('refuses a duplicate id with 409 and an unknown one on update with 404', async () => {
    const dup = await call(companyAdd, { info: company(companyA) }, 'superAdmin');
    expect(dup.status).toBe(409);
    expect(dup.error.errors).toEqual({ company_id: companyMessages.companyIdInUse });
    expect((await call(companyUpdate, { info: company('nope') }, 'superAdmin')).status).toBe(404);
  });

  it('is refused to a company admin (403) and without a token (401)', async () => {
    expect((await call(companyAdd, { info: company('x-co') }, 'adminA')).status).toBe(403);
    expect((await call(companyUpdate, { info: company(companyA) }, 'adminA')).status).toBe(403);
    expect((await call(companyAdd, { info: company('x-co') })).status).toBe(401);
    expect(await row('x-co')).toBeUndefined();
  });
});

describe('company_delete', () => {
  it('deletes and restores an empty company', async () => {
    expect((await call(companyDelete, { company_id: 'co-00', isDelete: true }, 'superAdmin')).status).toBe(200);
    expect(await row('co-00')).toMatchObject({ is_delete: true });
    expect(await ids({ search_item: '0', search_text: 'co-00' })).toEqual([]);
    expect((await call(companyDelete, { company_id: 'co-00', isDelete: false }, 'superAdmin')).status).toBe(200);
    expect(await row('co-00')).toMatchObject({ is_delete: false });
  });

  it('keeps a company that still has live accounts, customers or vehicles', async () => {
    const res = await call(companyDelete, { company_id: companyA, isDelete: true }, 'superAdmin');
    expect(res.status).toBe(409);
    expect(res.error.message).toBe(companyMessages.stillInUse);
    expect(await row(companyA)).toMatchObject({ is_delete: false });
  });

  it('answers 404, 403 and 400 where due', async () => {
    expect((await call(companyDelete, { company_id: 'nope', isDelete: true }, 'superAdmin')).status).toBe(404);
    expect((await call(companyDelete, { company_id: 'co-01', isDelete: true }, 'adminA')).status).toBe(403);
    expect((await call(companyDelete, unchecked({ company_id: 'co-01' }), 'superAdmin')).status).toBe(400);
  });
});
