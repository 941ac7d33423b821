import { carUserMessages, validationMessages as m } from '@fleet/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  companyA,
  companyB,
  createTestApp,
  fleet,
  login,
  post,
  seedFixtures,
  type FixtureAccount,
  type TestApp,
} from './helper.js';

/** user_* calls: customers, scoped by company. */
let t: TestApp;
const tokens = {} as Record<FixtureAccount, string>;
beforeAll(async () => {
  t = await createTestApp();
  await seedFixtures(t.db);
  for (const who of ['superAdmin', 'adminA', 'managerA', 'staffA'] as const) tokens[who] = await login(t.app, who);
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

const call = (path: string, body: object, who?: FixtureAccount) =>
  post(t.app, `/api/${path}`, body, who && tokens[who]);
const ids = async (body: object, who: FixtureAccount = 'superAdmin') => {
  const res = await call('user_list', { limit: 100, ...body }, who);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json().list as { user_id: string }[]).map((u) => u.user_id);
};
const count = async (body: object, who: FixtureAccount = 'superAdmin') =>
  (await call('user_list_count', body, who)).json().count as number;
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
    expect((await call('user_list', { isRegistered: true }, 'superAdmin')).json().list[0]).toMatchObject({
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
    expect((await call('user_list', {})).statusCode).toBe(401);
    expect((await call('user_list_count', {})).statusCode).toBe(401);
  });
});

describe('user_get_detail', () => {
  it('answers the customer with company name and vehicles', async () => {
    const res = await call('user_get_detail', { user_id: fleet.A.user_id }, 'staffA');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      user_id: fleet.A.user_id,
      company_name: '株式会社テストA',
      car_id: fleet.A.car_id,
      cars: [{ car_id: fleet.A.car_id, isDelete: false }],
    });
    expect((await call('user_get_detail', { user_id: 'cu-1' }, 'staffA')).json()).toMatchObject({
      birthday: '1985-09-30',
      gender: 1,
      payment_log: 1,
      cars: [],
    });
  });

  it('answers 404 across companies and 401 without a token', async () => {
    expect((await call('user_get_detail', { user_id: fleet.B.user_id }, 'staffA')).statusCode).toBe(404);
    expect((await call('user_get_detail', { user_id: fleet.A.user_id })).statusCode).toBe(401);
  });
});

describe('user_exist_check and user_add', () => {
  it('checks ids for the super admin only', async () => {
    expect(
      (await call('user_exist_check', { check_item: 'user_id', check_value: 'cu-5' }, 'superAdmin')).json(),
    ).toEqual({
      isExist: true,
    });
    expect((await call('user_exist_check', { check_value: 'nobody' }, 'superAdmin')).json()).toEqual({
      isExist: false,
    });
    expect((await call('user_exist_check', { check_value: 'cu-5' }, 'adminA')).statusCode).toBe(403);
  });

  it('registers a customer', async () => {
    const res = await call('user_add', { info: customer('new-u1', { payment_log: 2 }) }, 'superAdmin');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ ok: true, user_id: 'new-u1' });
    expect(await row('new-u1')).toMatchObject({ company_id: companyA, gender: 1, payment_log: 2, state: 0 });
  });

  it('answers per-field Japanese errors and writes nothing', async () => {
    const res = await call(
      'user_add',
      { info: customer('new-u2', { first_name: '', birthday: '2001-02-30', state: 7 }) },
      'superAdmin',
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toMatchObject({
      'info.first_name': m.required,
      'info.birthday': m.date,
      'info.state': expect.any(String),
    });
    expect(await row('new-u2')).toBeUndefined();
  });

  it('refuses duplicates (409), unknown companies (400) and everyone but the super admin (403)', async () => {
    const dup = await call('user_add', { info: customer('cu-5') }, 'superAdmin');
    expect(dup.statusCode).toBe(409);
    expect(dup.json().errors).toEqual({ user_id: carUserMessages.userIdInUse });
    expect(
      (await call('user_add', { info: customer('new-u3', { company_id: 'nope' }) }, 'superAdmin')).statusCode,
    ).toBe(400);
    expect((await call('user_add', { info: customer('new-u3') }, 'adminA')).statusCode).toBe(403);
    expect((await call('user_add', { info: customer('new-u3') })).statusCode).toBe(401);
    expect(await row('new-u3')).toBeUndefined();
  });
});

describe('user_update and user_delete', () => {
  it('lets a manager edit a customer of the company', async () => {
    const res = await call('user_update', { info: customer('cu-0', { name: '改名', company_id: '' }) }, 'managerA');
    expect(res.statusCode, res.body).toBe(200);
    expect(await row('cu-0')).toMatchObject({ name: '改名', company_id: companyA });
  });

  it('refuses common users (403), other companies (404) and moving a customer away (403)', async () => {
    expect((await call('user_update', { info: customer('cu-1') }, 'staffA')).statusCode).toBe(403);
    expect((await call('user_update', { info: customer('cu-6', { company_id: companyB }) }, 'adminA')).statusCode).toBe(
      404,
    );
    const move = await call('user_update', { info: customer('cu-1', { company_id: companyB }) }, 'adminA');
    expect(move.statusCode).toBe(403);
    expect(move.json().errors).toEqual({ company_id: carUserMessages.otherCompany });
    expect(await row('cu-1')).toMatchObject({ company_id: companyA, name: '花子1' });
  });

  it("moves a customer's vehicles with them when the super admin changes the company", async () => {
    expect(
      (await call('user_update', { info: customer(fleet.B.user_id, { company_id: companyA }) }, 'superAdmin'))
        .statusCode,
    ).toBe(200);
    const car = await t.db
      .selectFrom('cars')
      .select('company_id')
      .where('car_id', '=', fleet.B.car_id)
      .executeTakeFirstOrThrow();
    expect(car.company_id).toBe(companyA);
    await call('user_update', { info: customer(fleet.B.user_id, { company_id: companyB }) }, 'superAdmin');
  });

  it('deletes and restores a customer without a vehicle', async () => {
    expect((await call('user_delete', { user_id: 'cu-2', isDelete: true }, 'managerA')).statusCode).toBe(200);
    expect(await ids({}, 'managerA')).not.toContain('cu-2');
    expect(await ids({ isDelete: true }, 'managerA')).toContain('cu-2');
    expect((await call('user_delete', { user_id: 'cu-2', isDelete: false }, 'managerA')).statusCode).toBe(200);
    expect(await row('cu-2')).toMatchObject({ is_delete: false });
  });

  it('keeps a customer on a live vehicle (409) and answers 403/404/401 where due', async () => {
    const res = await call('user_delete', { user_id: fleet.A.user_id, isDelete: true }, 'adminA');
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe(carUserMessages.onVehicle);
    expect((await call('user_delete', { user_id: 'cu-3', isDelete: true }, 'staffA')).statusCode).toBe(403);
    expect((await call('user_delete', { user_id: 'cu-6', isDelete: true }, 'adminA')).statusCode).toBe(404);
    expect((await call('user_delete', { user_id: 'cu-3', isDelete: true })).statusCode).toBe(401);
    expect(await row('cu-6')).toMatchObject({ is_delete: false });
  });
});
