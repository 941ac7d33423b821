import {
  deviceAdd,
  deviceDelete,
  deviceExistCheck,
  deviceGetDetail,
  deviceList,
  deviceListCount,
  deviceUpdate,
  deviceMessages,
  errorMessages,
  fieldMessages,
  validationMessages as m,
  type Call,
} from '@fleet/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyDeviceSecret } from '../src/credentials/device-secret.js';
import {
  callAs,
  createTestApp,
  fleet,
  login,
  seedFixtures,
  unchecked,
  type FixtureAccount,
  type TestApp,
} from './helper.js';

/** device_* calls: GPS terminals, the super admin's alone. */
let t: TestApp;
const tokens = {} as Record<FixtureAccount, string>;
beforeAll(async () => {
  t = await createTestApp();
  await seedFixtures(t.db);
  for (const who of ['superAdmin', 'adminA'] as const) tokens[who] = await login(t.app, who);
  const extra = Array.from({ length: 6 }, (_, i) => ({
    car_device_id: `dev-${i}`,
    car_data_id: `35000000000000${i}`,
    password_hash: 'hmac256$x$y',
    ipaddr: `10.0.0.${i}`,
    car_type: i % 2 ? 'トヨタ プリウス' : 'ホンダ フィット',
    is_delete: i === 5,
  }));
  await t.db.insertInto('devices').values(extra).execute();
  await t.db
    .insertInto('device_latest_state')
    .values({
      car_data_id: fleet.A.car_data_id,
      device_state: 0,
      connection: 'connected',
      recorded_at: new Date().toISOString(),
    })
    .execute();
});
afterAll(() => t?.close());

/** A device call's raw answer (bodies here are often refused on purpose: unchecked). */
const call = async (c: Call, body: object, who?: FixtureAccount) =>
  (await callAs(t.app, who && tokens[who], c, unchecked(body))).raw;
const ids = async (body: object) => {
  const res = await call(deviceList, { limit: 100, ...body }, 'superAdmin');
  expect(res.statusCode, res.body).toBe(200);
  return (res.json().list as { car_device_id: string }[]).map((d) => d.car_device_id);
};
const count = async (body: object) => (await call(deviceListCount, body, 'superAdmin')).json().count as number;
const device = (id: string, over: object = {}) => ({
  car_device_id: id,
  password: 'terminal-pass',
  ipaddr: '192.168.1.10',
  macaddr: '02:1A:7F:00:00:99',
  car_type: '日産 ノート',
  car_data_id: '351234567890123',
  ...over,
});
const row = (id: string) => t.db.selectFrom('devices').selectAll().where('car_device_id', '=', id).executeTakeFirst();

describe('device_list and device_list_count', () => {
  it('list live terminals with the vehicle they are on', async () => {
    expect(await ids({})).toEqual([
      'dev-0',
      'dev-1',
      'dev-2',
      'dev-3',
      'dev-4',
      fleet.A.car_device_id,
      fleet.B.car_device_id,
    ]);
    const list = (await call(deviceList, { search_item: '0', search_text: 'device-a' }, 'superAdmin')).json().list;
    expect(list).toEqual([
      {
        car_device_id: 'device-a',
        ipaddr: '',
        macaddr: '',
        car_type: '',
        car_data_id: fleet.A.car_data_id,
        car_id: fleet.A.car_id,
        isDelete: false,
        protocol: 'json',
        cmd_cut_text: '',
        cmd_restore_text: '',
      },
    ]);
    expect(JSON.stringify(list)).not.toContain('hmac');
  });

  it('split terminals by whether they are on a vehicle (the vehicle-add picker)', async () => {
    expect(await ids({ isRegistered: true })).toEqual([fleet.A.car_device_id, fleet.B.car_device_id]);
    expect(await count({ isRegistered: false })).toBe(5);
    expect(await ids({ isRegistered: false, search_item: '4', search_text: 'プリウス' })).toEqual(['dev-1', 'dev-3']);
  });

  it('search IMEI and address, sort both ways, page through the counted rows', async () => {
    expect(await ids({ search_item: '3', search_text: '350000000000002' })).toEqual(['dev-2']);
    expect(await count({ search_item: '1', search_text: '10.0.0.' })).toBe(5);
    expect(await ids({ sorts: 'car_data_id desc', limit: 2 })).toEqual([fleet.B.car_device_id, fleet.A.car_device_id]);
    expect((await ids({ sorts: 'car_data_id asc' }))[0]).toBe('dev-0');
    const pages = [
      ...(await ids({ limit: 3 })),
      ...(await ids({ offset: 3, limit: 3 })),
      ...(await ids({ offset: 6, limit: 3 })),
    ];
    expect(pages).toHaveLength(await count({}));
    expect(await count({ isDelete: true })).toBe(8);
  });

  it('answer 401 without a token and 403 to company users', async () => {
    expect((await call(deviceList, {})).statusCode).toBe(401);
    expect((await call(deviceList, {}, 'adminA')).statusCode).toBe(403);
    expect((await call(deviceListCount, {}, 'adminA')).statusCode).toBe(403);
  });
});

describe('device_get_detail and device_exist_check', () => {
  it('answer the terminal with its vehicle and latest state, never the secret', async () => {
    const res = await call(deviceGetDetail, { car_device_id: fleet.A.car_device_id }, 'superAdmin');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      car: { car_id: fleet.A.car_id, company_name: '株式会社テストA' },
      latest: { device_state: 0, connection: 'connected' },
    });
    expect(res.body).not.toContain('hmac256');
    expect((await call(deviceGetDetail, { car_device_id: 'dev-0' }, 'superAdmin')).json()).toMatchObject({
      car: null,
      latest: null,
    });
  });

  it('answer 404, 403 and 401 where due', async () => {
    expect((await call(deviceGetDetail, { car_device_id: 'nope' }, 'superAdmin')).statusCode).toBe(404);
    expect((await call(deviceGetDetail, { car_device_id: 'dev-0' }, 'adminA')).statusCode).toBe(403);
    expect(
      (await call(deviceExistCheck, { check_item: 'car_data_id', check_value: fleet.A.car_data_id })).statusCode,
    ).toBe(401);
  });

  it('check ids and IMEIs, deleted terminals included', async () => {
    const check = async (check_item: string, check_value: string) =>
      (await call(deviceExistCheck, { check_item, check_value }, 'superAdmin')).json();
    expect(await check('car_device_id', 'dev-5')).toEqual({ isExist: true });
    expect(await check('car_data_id', '350000000000005')).toEqual({ isExist: true });
    expect(await check('car_data_id', '359999999999999')).toEqual({ isExist: false });
    expect((await call(deviceExistCheck, { check_item: 'ipaddr', check_value: 'x' }, 'superAdmin')).statusCode).toBe(
      400,
    );
  });
});

describe('device_add and device_update', () => {
  it('registers a terminal with a hashed secret', async () => {
    const res = await call(deviceAdd, { info: device('new-dev') }, 'superAdmin');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ ok: true, car_device_id: 'new-dev' });
    const saved = await row('new-dev');
    expect(saved).toMatchObject({ car_data_id: '351234567890123', macaddr: '02:1A:7F:00:00:99' });
    expect(verifyDeviceSecret('terminal-pass', saved!.password_hash)).toBe(true);
  });

  it('refuses an IMEI already registered with the spec message', async () => {
    const res = await call(deviceAdd, { info: device('new-dev2', { car_data_id: '350000000000005' }) }, 'superAdmin');
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({
      message: errorMessages.imeiInUse,
      errors: { car_data_id: deviceMessages.imeiInUse },
    });
    const dupId = await call(deviceAdd, { info: device('dev-1', { car_data_id: '359999999999990' }) }, 'superAdmin');
    expect(dupId.statusCode).toBe(409);
    expect(dupId.json().errors).toEqual({ car_device_id: deviceMessages.deviceIdInUse });
    expect(await row('new-dev2')).toBeUndefined();
  });

  it('answers per-field Japanese errors and writes nothing', async () => {
    const res = await call(
      deviceAdd,
      { info: device('new-dev3', { password: 'short', car_data_id: '12345', ipaddr: 'x' }) },
      'superAdmin',
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual({
      'info.password': m.min,
      'info.car_data_id': fieldMessages.imei,
      'info.ipaddr': fieldMessages.ipaddr,
    });
    expect(await row('new-dev3')).toBeUndefined();
    expect((await call(deviceAdd, { info: device('new-dev3') }, 'adminA')).statusCode).toBe(403);
  });

  it('keeps the secret when the password is empty and carries a new IMEI to the vehicle', async () => {
    const before = (await row(fleet.A.car_device_id))!.password_hash;
    const info = device(fleet.A.car_device_id, { password: '', car_data_id: '358409100000077' });
    expect((await call(deviceUpdate, { info }, 'superAdmin')).statusCode).toBe(200);
    expect((await row(fleet.A.car_device_id))!.password_hash).toBe(before);
    const car = await t.db
      .selectFrom('cars')
      .select('car_data_id')
      .where('car_id', '=', fleet.A.car_id)
      .executeTakeFirstOrThrow();
    expect(car.car_data_id).toBe('358409100000077');
    const back = device(fleet.A.car_device_id, { password: 'another-secret', car_data_id: fleet.A.car_data_id });
    expect((await call(deviceUpdate, { info: back }, 'superAdmin')).statusCode).toBe(200);
    expect(verifyDeviceSecret('another-secret', (await row(fleet.A.car_device_id))!.password_hash)).toBe(true);
  });

  it("refuses another terminal's IMEI (409), unknown terminals (404) and company users (403)", async () => {
    expect(
      (await call(deviceUpdate, { info: device('dev-0', { car_data_id: fleet.B.car_data_id }) }, 'superAdmin'))
        .statusCode,
    ).toBe(409);
    expect((await call(deviceUpdate, { info: device('nope') }, 'superAdmin')).statusCode).toBe(404);
    expect((await call(deviceUpdate, { info: device('dev-0') }, 'adminA')).statusCode).toBe(403);
    expect(await row('dev-0')).toMatchObject({ car_data_id: '350000000000000' });
  });
});

describe('device_delete', () => {
  it('deletes and restores a free terminal', async () => {
    expect(
      (
        await call(
          deviceDelete,
          { car_device_id: 'dev-4', car_data_id: '350000000000004', isDelete: true },
          'superAdmin',
        )
      ).statusCode,
    ).toBe(200);
    expect(await ids({})).not.toContain('dev-4');
    expect(
      (
        await call(
          deviceDelete,
          { car_device_id: 'dev-4', car_data_id: '350000000000004', isDelete: false },
          'superAdmin',
        )
      ).statusCode,
    ).toBe(200);
    expect(await row('dev-4')).toMatchObject({ is_delete: false });
  });

  it('keeps a terminal on a live vehicle with a clear 409', async () => {
    const res = await call(
      deviceDelete,
      { car_device_id: fleet.B.car_device_id, car_data_id: fleet.B.car_data_id, isDelete: true },
      'superAdmin',
    );
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe(deviceMessages.onVehicle);
  });

  it('answers 404 for a mismatched IMEI, 403 and 401 where due', async () => {
    expect(
      (
        await call(
          deviceDelete,
          { car_device_id: 'dev-3', car_data_id: '350000000000002', isDelete: true },
          'superAdmin',
        )
      ).statusCode,
    ).toBe(404);
    expect(
      (await call(deviceDelete, { car_device_id: 'dev-3', car_data_id: '350000000000003', isDelete: true }, 'adminA'))
        .statusCode,
    ).toBe(403);
    expect(
      (await call(deviceDelete, { car_device_id: 'dev-3', car_data_id: '350000000000003', isDelete: true })).statusCode,
    ).toBe(401);
    expect(await row('dev-3')).toMatchObject({ is_delete: false });
  });
});
