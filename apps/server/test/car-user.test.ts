import {
  carUserMessages,
  validationMessages as m,
  userAdd,
  userDelete,
  userExistCheck,
  userGetDetail,
  userList,
  userListCount,
  userUpdate,
} from '@fleet/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { companyA, companyB, fleet, createSignedInApp, type FixtureAccount, type SignedInApp } from './helper.js';

/** user_* calls: customers, scoped by company. */
let t: SignedInApp;
beforeAll(async () => {
  t = await createSignedInApp(['superAdmin', 'adminA', 'managerA', 'staffA']);
  const extra = Array.from({ length: 8 }, (_, i) => ({
    user_id: `cu-${i}`,
    company_id: i < 6 ? companyA : companyB,
    first_name: '佐藤',
    name: `花子${i}`,
    merchant: i % 2 ? '渋谷オート' : '新宿カーズ',
    payment_log: i % 4,
    birthday: '1985-09-30',
    gender: 1,
    is_delete: i === 5,
  }));
  await t.db.insertInto('car_users').values(extra).execute();
});
afterAll(() => t?.close());

const call: SignedInApp['call'] = (...args) => t.call(...args);
const ids = async (body: object, who: FixtureAccount = 'superAdmin') => {
  const res = await call(userList, { limit: 100, ...body }, who);
  expect(res.status, res.raw.body).toBe(200);
  return (res.body.list as { user_id: string }[]).map((u) => u.user_id);
};
const count = async (body: object, who: FixtureAccount = 'superAdmin') =>
  (await call(userListCount, body, who)).body.count as number;
const customer = (id: string, over: object = {}) => ({
  user_id: id,
  first_name: '高橋',
  name: '美咲',
  company_id: companyA,
  birthday: '1992-07-21',
  gender: '1',
  ...over,
});
const row = (id: string) => t.db.selectFrom('car_users').selectAll().where('user_id', '=', id).executeTakeFirst();

describe('user_list and user_list_count', () => {
  it('show company users their company only, whatever companyId says', async () => {
    const a = await ids({ companyId: companyB }, 'staffA');
    expect(a).toEqual(['cu-0', 'cu-1', 'cu-2', 'cu-3', 'cu-4', fleet.A.user_id]);
    expect(await count({ companyId: companyB }, 'staffA')).toBe(6);
  });

  it('filter by company for the super admin', async () => {
    expect(await ids({ companyId: companyB })).toEqual(['cu-6', 'cu-7', fleet.B.user_id]);
    expect(await count({})).toBe(9);
  });

  it('search name, company name and merchant', async () => {
    expect(await ids({ search_item: '1', search_text: '佐藤 花子3' })).toEqual(['cu-3']);
    expect(await ids({ search_item: '2', search_text: 'テストb' })).toEqual(['cu-6', 'cu-7', fleet.B.user_id]);
    expect(await count({ search_item: '3', search_text: '渋谷' }, 'managerA')).toBe(2);
  });

  it('sort by payment delay both ways, user_id breaking ties', async () => {
    const asc = await ids({ sorts: 'payment_log asc', companyId: companyA });
    expect(asc).toEqual(['cu-0', 'cu-4', fleet.A.user_id, 'cu-1', 'cu-2', 'cu-3']);
    expect(await ids({ sorts: 'payment_log desc', companyId: companyA })).toEqual([
      'cu-3',
      'cu-2',
      'cu-1',
      'cu-0',
      'cu-4',
      fleet.A.user_id,
    ]);
  });

  it('split customers by whether they are on a vehicle', async () => {
    expect(await ids({ isRegistered: true })).toEqual([fleet.A.user_id, fleet.B.user_id]);
    expect(await count({ isRegistered: false })).toBe(7);
    expect((await call(userList, { isRegistered: true }, 'superAdmin')).body.list[0]).toMatchObject({
      car_id: fleet.A.car_id,
      company_name: '株式会社テストA',
    });
  });

  it('page through exactly the counted rows and include deleted ones on request', async () => {
    const pages = [
      ...(await ids({ limit: 4 })),
      ...(await ids({ offset: 4, limit: 4 })),
      ...(await ids({ offset: 8, limit: 4 })),
    ];
    expect(pages).toHaveLength(await count({}));
    expect(await count({ isDelete: true })).toBe(10);
  });

  it('answer 401 without a token', async () => {
    expect((await call(userList, {})).status).toBe(401);
    expect((await call(userListCount, {})).status).toBe(401);
  });
});

describe('user_get_detail', () => {
  it('answers the customer with company name and vehicles', async () => {
    const res = await call(userGetDetail, { user_id: fleet.A.user_id }, 'staffA');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      user_id: fleet.A.user_id,
      company_name: '株式会社テストA',
      car_id: fleet.A.car_id,
      cars: [{ car_id: fleet.A.car_id, isDelete: false }],
    });
    expect((await call(userGetDetail, { user_id: 'cu-1' }, 'staffA')).body).toMatchObject({
      birthday: '1985-09-30',
      gender: 1,
      payment_log: 1,
      cars: [],
    });
  });

  it('answers 404 across companies and 401 without a token', async () => {
    expect((await call(userGetDetail, { user_id: fleet.B.user_id }, 'staffA')).status).toBe(404);
    expect((await call(userGetDetail, { user_id: fleet.A.user_id })).status).toBe(401);
  });
});

describe('user_exist_check and user_add', () => {
  it('checks ids for the super admin only', async () => {
    expect((await call(userExistCheck, { check_item: 'user_id', check_value: 'cu-5' }, 'superAdmin')).body).toEqual({
      isExist: true,
    });
    expect((await call(userExistCheck, { check_value: 'nobody' }, 'superAdmin')).body).toEqual({
      isExist: false,
    });
    expect((await call(userExistCheck, { check_value: 'cu-5' }, 'adminA')).status).toBe(403);
  });

  it('registers a customer', async () => {
    const res = await call(userAdd, { info: customer('new-u1', { payment_log: 2 }) }, 'superAdmin');
    expect(res.status, res.raw.body).toBe(200);
    expect(res.body).toEqual({ ok: true, user_id: 'new-u1' });
    expect(await row('new-u1')).toMatchObject({ company_id: companyA, gender: 1, payment_log: 2, state: 0 });
  });

  it('stores a phone typed in full width and a birthday typed with slashes in their one form', async () => {
    const info = customer('new-u4', { work_phone: '０９０－１２３４－５６７８', birthday: '１９８５/４/１２' });
    const res = await call(userAdd, { info }, 'superAdmin');
    expect(res.status, res.raw.body).toBe(200);
    const stored = await row('new-u4');
    expect(stored?.work_phone).toBe('090-1234-5678');
    // A date column: PostgreSQL's driver gives its text, PGlite a Date at UTC midnight.
    const birthday: unknown = stored?.birthday;
    expect(birthday instanceof Date ? birthday.toISOString().slice(0, 10) : birthday).toBe('1985-04-12');
    const bad = await call(userAdd, { info: customer('new-u5', { work_phone: '090-12ab-5678' }) }, 'superAdmin');
    expect(bad.status).toBe(400);
    expect(bad.error.errors).toEqual({ 'info.work_phone': '電話番号の形式が不正です（例: 090-1234-5678）' });
    expect(await row('new-u5')).toBeUndefined();
  });

  it('answers per-field Japanese errors and writes nothing', async () => {
    const res = await call(
      userAdd,
      { info: customer('new-u2', { first_name: '', birthday: '2001-02-30', state: 7 }) },
      'superAdmin',
    );
    expect(res.status).toBe(400);
    expect(res.error.errors).toMatchObject({
      'info.first_name': m.required,
      'info.birthday': m.date,
      'info.state': expect.any(String),
    });
    expect(await row('new-u2')).toBeUndefined();
  });

  it('refuses duplicates (409), unknown companies (400) and everyone but the super admin (403)', async () => {
    const dup = await call(userAdd, { info: customer('cu-5') }, 'superAdmin');
    expect(dup.status).toBe(409);
    expect(dup.error.errors).toEqual({ user_id: carUserMessages.userIdInUse });
    expect((await call(userAdd, { info: customer('new-u3', { company_id: 'nope' }) }, 'superAdmin')).status).toBe(400);
    expect((await call(userAdd, { info: customer('new-u3') }, 'adminA')).status).toBe(403);
    expect((await call(userAdd, { info: customer('new-u3') })).status).toBe(401);
    expect(await row('new-u3')).toBeUndefined();
  });
});

describe('user_update and user_delete', () => {
  it('lets a manager edit a customer of the company', async () => {
    const res = await call(userUpdate, { info: customer('cu-0', { name: '改名', company_id: '' }) }, 'managerA');
    expect(res.status, res.raw.body).toBe(200);
    expect(await row('cu-0')).toMatchObject({ name: '改名', company_id: companyA });
  });

  it('refuses common users (403), other companies (404) and moving a customer away (403)', async () => {
    expect((await call(userUpdate, { info: customer('cu-1') }, 'staffA')).status).toBe(403);
    expect((await call(userUpdate, { info: customer('cu-6', { company_id: companyB }) }, 'adminA')).status).toBe(404);
    const move = await call(userUpdate, { info: customer('cu-1', { company_id: companyB }) }, 'adminA');
    expect(move.status).toBe(403);
    expect(move.error.errors).toEqual({ company_id: carUserMessages.otherCompany });
    expect(await row('cu-1')).toMatchObject({ company_id: companyA, name: '花子1' });
  });

  it("moves a customer's vehicles with them when the super admin changes the company", async () => {
    expect(
      (await call(userUpdate, { info: customer(fleet.B.user_id, { company_id: companyA }) }, 'superAdmin')).status,
    ).toBe(200);
    const car = await t.db
      .selectFrom('cars')
      .select('company_id')
      .where('car_id', '=', fleet.B.car_id)
      .executeTakeFirstOrThrow();
    expect(car.company_id).toBe(companyA);
    await call(userUpdate, { info: customer(fleet.B.user_id, { company_id: companyB }) }, 'superAdmin');
  });

  it('deletes and restores a customer without a vehicle', async () => {
    expect((await call(userDelete, { user_id: 'cu-2', isDelete: true }, 'managerA')).status).toBe(200);
    expect(await ids({}, 'managerA')).not.toContain('cu-2');
    expect(await ids({ isDelete: true }, 'managerA')).toContain('cu-2');
    expect((await call(userDelete, { user_id: 'cu-2', isDelete: false }, 'managerA')).status).toBe(200);
    expect(await row('cu-2')).toMatchObject({ is_delete: false });
  });

  it('keeps a customer on a live vehicle (409) and answers 403/404/401 where due', async () => {
    const res = await call(userDelete, { user_id: fleet.A.user_id, isDelete: true }, 'adminA');
    expect(res.status).toBe(409);
    expect(res.error.message).toBe(carUserMessages.onVehicle);
    expect((await call(userDelete, { user_id: 'cu-3', isDelete: true }, 'staffA')).status).toBe(403);
    expect((await call(userDelete, { user_id: 'cu-6', isDelete: true }, 'adminA')).status).toBe(404);
    expect((await call(userDelete, { user_id: 'cu-3', isDelete: true })).status).toBe(401);
    expect(await row('cu-6')).toMatchObject({ is_delete: false });
  });
});
