import { fieldMessages, carGetDetail, carGetNewid, carList, carListCount } from '@fleet/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { companyA, companyB, fleet, createSignedInApp, type FixtureAccount, type SignedInApp } from './helper.js';

/** car_list_count, car_list, car_get_detail, car_get_newid. */
let t: SignedInApp;
beforeAll(async () => {
  t = await createSignedInApp(['superAdmin', 'adminA', 'staffA']);
  const n = [1, 2, 3, 4, 5];
  await t.db
    .insertInto('car_users')
    .values(
      n.map((i) => ({
        user_id: `cu-${i}`,
        company_id: companyA,
        first_name: '鈴木',
        name: `一郎${i}`,
        merchant: i % 2 ? '丸の内モータース' : '湾岸オート',
        payment_log: i % 4,
        birthday: null,
        gender: 0,
      })),
    )
    .execute();
  await t.db
    .insertInto('devices')
    .values(
      n.map((i) => ({ car_device_id: `dv-${i}`, car_data_id: `35100000000000${i}`, password_hash: 'hmac256$x$y' })),
    )
    .execute();
  await t.db
    .insertInto('cars')
    .values(
      n.map((i) => ({
        car_id: `C00000${i}`,
        company_id: companyA,
        user_id: `cu-${i}`,
        car_number: `品川 30${i} あ`,
        car_device_id: i === 5 ? null : `dv-${i}`,
        car_data_id: i === 5 ? null : `35100000000000${i}`,
        car_status: i,
        is_delete: i === 5,
        ...(i === 1 ? { lat_min: 35.5, lat_max: 35.8, lng_min: 139.5, lng_max: 139.9 } : {}),
      })),
    )
    .execute();
  const now = new Date().toISOString();
  await t.db
    .insertInto('device_latest_state')
    .values([
      { car_data_id: fleet.A.car_data_id, device_state: 0, recorded_at: now },
      {
        car_data_id: '351000000000001',
        device_state: 0,
        recorded_at: now,
        lat: 35.6,
        lng: 139.7,
        engine_running: 'on',
      },
      { car_data_id: '351000000000002', device_state: 1002, recorded_at: now },
    ])
    .execute();
});
afterAll(() => t?.close());

const call: SignedInApp['call'] = (...args) => t.call(...args);
const ids = async (body: object, who: FixtureAccount = 'superAdmin') => {
  const res = await call(carList, { limit: 100, ...body }, who);
  expect(res.status, res.raw.body).toBe(200);
  return (res.body.list as { car_id: string }[]).map((c) => c.car_id);
};
const count = async (body: object, who: FixtureAccount = 'superAdmin') =>
  (await call(carListCount, body, who)).body.count as number;

describe('car_list and car_list_count', () => {
  it('list vehicles sorted by car_id with customer, company and latest state', async () => {
    expect(await ids({})).toEqual(['C000001', 'C000002', 'C000003', 'C000004', fleet.A.car_id, fleet.B.car_id]);
    const [first] = (await call(carList, {}, 'superAdmin')).body.list;
    expect(first).toMatchObject({
      car_id: 'C000001',
      user_name: '鈴木 一郎1',
      merchant: '丸の内モータース',
      payment_log: 1,
      company_name: '株式会社テストA',
    });
    // The list's part of the state (CarListState): its badges and 最終受信; the position is the detail's.
    expect(first?.latest).toEqual({
      engine_running: 'on',
      engine_line: null,
      connection: null,
      device_state: 0,
      last_seen_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    });
  });

  it('keep company users to their company, ignoring companyId', async () => {
    expect(await ids({ companyId: companyB }, 'staffA')).toEqual([
      'C000001',
      'C000002',
      'C000003',
      'C000004',
      fleet.A.car_id,
    ]);
    expect(await count({ companyId: companyB }, 'staffA')).toBe(5);
    expect(await ids({ companyId: companyB })).toEqual([fleet.B.car_id]);
  });

  it('search customer name, merchant, number and payment delay (number or label)', async () => {
    expect(await ids({ search_item: '1', search_text: '一郎3' })).toEqual(['C000003']);
    expect(await ids({ search_item: '2', search_text: '湾岸' })).toEqual(['C000002', 'C000004']);
    expect(await ids({ search_item: '3', search_text: '品川 302' })).toEqual(['C000002']);
    expect(await ids({ search_item: '4', search_text: '2' })).toEqual(['C000002']);
    expect(await ids({ search_item: '4', search_text: '3ヶ月' })).toEqual(['C000003']);
    expect(await count({ search_item: '4', search_text: '遅延なし' })).toBe(3);
  });

  it('search the terminal IMEI (the data-log screen finds its vehicle by it)', async () => {
    expect(await ids({ search_item: '5', search_text: '351000000000002' })).toEqual(['C000002']);
    expect(await count({ search_item: '5', search_text: '351000000000002' }, 'staffA')).toBe(1);
  });

  it('keep only vehicles whose terminal last reported 正常 with isNormal', async () => {
    expect(await ids({ isNormal: true })).toEqual(['C000001', fleet.A.car_id]);
    expect(await count({ isNormal: true })).toBe(2);
  });

  it('sort both ways and page through exactly the counted rows', async () => {
    expect(await ids({ sorts: 'car_status desc', companyId: companyA })).toEqual([
      'C000004',
      'C000003',
      'C000002',
      'C000001',
      fleet.A.car_id,
    ]);
    expect(await ids({ sorts: 'payment_log asc', companyId: companyA })).toEqual([
      'C000004',
      fleet.A.car_id,
      'C000001',
      'C000002',
      'C000003',
    ]);
    const pages = [...(await ids({ limit: 4 })), ...(await ids({ offset: 4, limit: 4 }))];
    expect(pages).toEqual(await ids({}));
    const bad = await call(carList, { sorts: 'car_vin asc' }, 'superAdmin');
    expect(bad.status).toBe(400);
    expect(bad.error.errors).toEqual({ sorts: fieldMessages.sort });
  });

  it('include deleted vehicles on request', async () => {
    expect(await count({ isDelete: true })).toBe(7);
    expect(await ids({ isDelete: true, search_item: '0', search_text: 'C000005' })).toEqual(['C000005']);
  });

  it('answer 401 without a token', async () => {
    expect((await call(carList, {})).status).toBe(401);
    expect((await call(carListCount, {})).status).toBe(401);
  });
});

describe('car_get_detail', () => {
  it('answers vehicle, customer, terminal (no secret), company, area and latest state', async () => {
    const res = await call(carGetDetail, { car_id: 'C000001' }, 'staffA');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      car_id: 'C000001',
      company_name: '株式会社テストA',
      car_data_id: '351000000000001',
      car_status: 1,
      available_data: { lat_min: 35.5, lat_max: 35.8, lng_min: 139.5, lng_max: 139.9 },
      user: { user_id: 'cu-1', first_name: '鈴木', isDelete: false },
      device: { car_device_id: 'dv-1', car_data_id: '351000000000001', isDelete: false },
      latest: { device_state: 0 },
      isDelete: false,
    });
    expect(res.body).not.toContain('hmac256');
    expect((await call(carGetDetail, { car_id: 'C000005' }, 'staffA')).body).toMatchObject({
      device: null,
      latest: null,
      available_data: null,
      isDelete: true,
    });
  });

  it('answers 404 across companies and 401 without a token', async () => {
    expect((await call(carGetDetail, { car_id: fleet.B.car_id }, 'adminA')).status).toBe(404);
    expect((await call(carGetDetail, { car_id: 'C000001' })).status).toBe(401);
  });
});

describe('latest state times', () => {
  it('reach the list and the detail as stored, cut to the millisecond, for the super admin and the company', async () => {
    // A day ahead, so the company's period (opened when the vehicle was added) covers them.
    const base = new Date(Math.floor(Date.now() / 1000) * 1000 + 86_400_000).toISOString().slice(0, 19);
    await t.db
      .updateTable('device_latest_state')
      .set({
        recorded_at: `${base}Z`,
        last_seen_at: `${base}.456789Z`,
        device_state_at: `${base}.12Z`,
        engine_running_at: `${base}.1239Z`,
      })
      .where('car_data_id', '=', '351000000000002')
      .execute();
    for (const who of ['superAdmin', 'adminA'] as const) {
      const list = await call(carList, { search_item: '0', search_text: 'C000002' }, who);
      expect(list.body.list.map((r) => [r.car_id, r.latest?.last_seen_at, r.latest?.device_state])).toEqual([
        ['C000002', `${base}.456Z`, 1002],
      ]);
      const detail = await call(carGetDetail, { car_id: 'C000002' }, who);
      expect(detail.body.latest).toMatchObject({ recorded_at: `${base}.000Z`, last_seen_at: `${base}.456Z` });
    }
  });
});

describe('car_get_newid', () => {
  it('answers the next free C-number, deleted vehicles counted', async () => {
    const res = await call(carGetNewid, {}, 'superAdmin');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ newid: 'C000006' });
  });

  it("is the super admin's only", async () => {
    expect((await call(carGetNewid, {}, 'adminA')).status).toBe(403);
    expect((await call(carGetNewid, {})).status).toBe(401);
  });
});
