import {
  carGetDetail,
  carMessages,
  carUserDeviceAdd,
  deviceMessages,
  fieldMessages,
  validationMessages as m,
  type CallRequest,
} from '@fleet/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { companyB, createSignedInApp, fleet, unchecked, type FixtureAccount, type SignedInApp } from './helper.js';

/** car_user_device_add: the registration wizard, all or nothing. */
let t: SignedInApp;
beforeAll(async () => {
  t = await createSignedInApp(['superAdmin', 'adminA']);
});
afterAll(() => t?.close());

const wizard = (n: string, over: { user?: object; device?: object; car?: object } = {}) => ({
  user: {
    user_id: `wz-user-${n}`,
    first_name: '田中',
    name: '健太',
    company_id: companyB,
    birthday: '1988-11-02',
    gender: 0,
    ...over.user,
  },
  device: {
    car_device_id: `wz-dev-${n}`,
    password: 'terminal-pass',
    car_data_id: `35300000000000${n}`,
    ipaddr: '10.1.0.1',
    ...over.device,
  },
  car: { car_id: `W00000${n}`, car_number: '横浜 330 な 12-34', car_type: 'マツダ CX-5', ...over.car },
});
const add = (body: CallRequest<typeof carUserDeviceAdd>, who: FixtureAccount = 'superAdmin') =>
  t.call(carUserDeviceAdd, body, who);
const written = async (n: string) => ({
  user: await t.db.selectFrom('car_users').selectAll().where('user_id', '=', `wz-user-${n}`).executeTakeFirst(),
  device: await t.db.selectFrom('devices').selectAll().where('car_device_id', '=', `wz-dev-${n}`).executeTakeFirst(),
  car: await t.db.selectFrom('cars').selectAll().where('car_id', '=', `W00000${n}`).executeTakeFirst(),
});
const nothingWritten = async (n: string) =>
  expect(await written(n)).toEqual({ user: undefined, device: undefined, car: undefined });

describe('car_user_device_add', () => {
  it('registers customer, terminal and vehicle linked together', async () => {
    const res = await add(wizard('1'));
    expect(res.status, res.raw.body).toBe(200);
    expect(res.body).toEqual({ ok: true, user_id: 'wz-user-1', car_device_id: 'wz-dev-1', car_id: 'W000001' });
    const { user, device, car } = await written('1');
    expect(user).toMatchObject({ company_id: companyB, gender: 0 });
    expect(device).toMatchObject({ car_data_id: '353000000000001' });
    expect(car).toMatchObject({
      user_id: 'wz-user-1',
      car_device_id: 'wz-dev-1',
      car_data_id: '353000000000001',
      company_id: companyB,
    });
    const detail = await t.call(carGetDetail, { car_id: 'W000001' }, 'superAdmin');
    expect(detail.body).toMatchObject({
      user: { user_id: 'wz-user-1' },
      device: { car_device_id: 'wz-dev-1' },
      company_name: '株式会社テストB',
    });
  });

  it('keys validation errors by part and writes nothing', async () => {
    const body = wizard('2', {
      user: { first_name: '' },
      device: { car_data_id: '123' },
      car: { car_number: '', available_data: { lat_min: 10 } },
    });
    const res = await add(unchecked(body));
    expect(res.status).toBe(400);
    expect(res.error.errors).toEqual({
      'user.first_name': m.required,
      'device.car_data_id': fieldMessages.imei,
      'car.car_number': m.required,
      'car.available_data.lat_max': m.required,
      'car.available_data.lng_min': m.required,
      'car.available_data.lng_max': m.required,
    });
    await nothingWritten('2');
  });

  it('rolls everything back when the vehicle part fails (duplicate car_id)', async () => {
    const res = await add(wizard('3', { car: { car_id: fleet.A.car_id } }));
    expect(res.status).toBe(409);
    expect(res.error.errors).toEqual({ 'car.car_id': carMessages.carIdInUse });
    const { user, device } = await written('3');
    expect({ user, device }).toEqual({ user: undefined, device: undefined });
    expect(
      await t.db.selectFrom('cars').select('user_id').where('car_id', '=', fleet.A.car_id).executeTakeFirst(),
    ).toEqual({
      user_id: fleet.A.user_id,
    });
  });

  it('rolls back the customer when the terminal part fails (IMEI in use)', async () => {
    const res = await add(wizard('4', { device: { car_data_id: fleet.B.car_data_id } }));
    expect(res.status).toBe(409);
    expect(res.error).toMatchObject({
      message: deviceMessages.imeiInUse,
      errors: { 'device.car_data_id': deviceMessages.imeiInUse },
    });
    await nothingWritten('4');
  });

  it('refuses a taken customer id with the error on user.user_id', async () => {
    const res = await add(wizard('5', { user: { user_id: fleet.A.user_id } }));
    expect(res.status).toBe(409);
    expect(Object.keys(res.error.errors ?? {})).toEqual(['user.user_id']);
    await nothingWritten('5');
  });

  it("is the super admin's only", async () => {
    expect((await add(wizard('6'), 'adminA')).status).toBe(403);
    expect((await t.call(carUserDeviceAdd, wizard('6'))).status).toBe(401);
    await nothingWritten('6');
  });
});
