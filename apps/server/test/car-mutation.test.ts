import {
  carMessages,
  fieldMessages,
  validationMessages as m,
  carAdd,
  carDelete,
  carStatusUpdate,
  carUpdate,
  deviceList,
} from '@fleet/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { companyA, companyB, fleet, createSignedInApp, unchecked, type SignedInApp } from './helper.js';

/** car_add, car_update, car_status_update, car_delete. */
let t: SignedInApp;
beforeAll(async () => {
  t = await createSignedInApp(['superAdmin', 'adminA', 'managerA', 'staffA']);
  await t.db
    .insertInto('car_users')
    .values([
      { user_id: 'free-a', company_id: companyA, birthday: null, gender: null },
      { user_id: 'free-a2', company_id: companyA, birthday: null, gender: null },
      { user_id: 'free-b', company_id: companyB, birthday: null, gender: null },
    ])
    .execute();
  await t.db
    .insertInto('devices')
    .values(
      ['fd-1', 'fd-2', 'fd-3', 'fd-del'].map((id, i) => ({
        car_device_id: id,
        car_data_id: `35200000000000${i}`,
        password_hash: 'x',
        is_delete: id === 'fd-del',
      })),
    )
    .execute();
});
afterAll(() => t?.close());

const call: SignedInApp['call'] = (...args) => t.call(...args);
const car = (id: string, over: object = {}) => ({
  car_id: id,
  car_number: '品川 500 さ 11-22',
  car_type: 'トヨタ アクア',
  car_vin: 'NHP10-1234567',
  user_id: 'free-a',
  car_device_id: 'fd-1',
  ...over,
});
const area = { lat_min: 35.5, lat_max: 35.8, lng_min: 139.5, lng_max: 139.9 };
const row = (id: string) => t.db.selectFrom('cars').selectAll().where('car_id', '=', id).executeTakeFirst();

describe('car_add', () => {
  it('registers a vehicle: company from the customer, car_data_id from the terminal', async () => {
    const res = await call(carAdd, { info: car('C000100', { available_data: area }) }, 'superAdmin');
    expect(res.status, res.raw.body).toBe(200);
    expect(res.body).toEqual({ ok: true, car_id: 'C000100' });
    expect(await row('C000100')).toMatchObject({
      company_id: companyA,
      car_data_id: '352000000000000',
      ...area,
      car_status: 0,
      is_delete: false,
    });
    expect(
      (await call(carAdd, { info: car('C000101', { user_id: 'free-b', car_device_id: '' }) }, 'superAdmin')).status,
    ).toBe(200);
    expect(await row('C000101')).toMatchObject({
      company_id: companyB,
      car_device_id: null,
      car_data_id: null,
      lat_min: null,
    });
  });

  it('answers per-field Japanese errors and writes nothing', async () => {
    const info = car('C000110', { car_number: '', available_data: { ...area, lat_max: 35.1 } });
    const res = await call(carAdd, { info }, 'superAdmin');
    expect(res.status).toBe(400);
    expect(res.error.errors).toEqual({
      'info.car_number': m.required,
      'info.available_data.lat_max': fieldMessages.minBelowMax,
    });
    expect(await row('C000110')).toBeUndefined();
  });

  it('refuses a terminal already on a live vehicle, a deleted terminal, a taken id and an unknown customer', async () => {
    const inUse = await call(carAdd, { info: car('C000111', { car_device_id: fleet.A.car_device_id }) }, 'superAdmin');
    expect(inUse.status).toBe(409);
    expect(inUse.error.errors).toEqual({ car_device_id: carMessages.deviceInUse });
    const deleted = await call(carAdd, { info: car('C000111', { car_device_id: 'fd-del' }) }, 'superAdmin');
    expect(deleted.status).toBe(400);
    expect(deleted.error.errors).toEqual({ car_device_id: carMessages.deviceMissing });
    expect(
      (await call(carAdd, { info: car(fleet.A.car_id, { car_device_id: 'fd-3' }) }, 'superAdmin')).error.errors,
    ).toEqual({
      car_id: carMessages.carIdInUse,
    });
    expect(
      (await call(carAdd, { info: car('C000111', { user_id: 'nobody', car_device_id: 'fd-3' }) }, 'superAdmin')).error
        .errors,
    ).toEqual({
      user_id: carMessages.userMissing,
    });
    expect(await row('C000111')).toBeUndefined();
  });

  it("is the super admin's only", async () => {
    expect((await call(carAdd, { info: car('C000112', { car_device_id: 'fd-3' }) }, 'adminA')).status).toBe(403);
    expect((await call(carAdd, { info: car('C000112', { car_device_id: 'fd-3' }) })).status).toBe(401);
    expect(await row('C000112')).toBeUndefined();
  });
});

describe('car_update', () => {
  const carA = (over: object = {}) =>
    car(fleet.A.car_id, { user_id: fleet.A.user_id, car_device_id: fleet.A.car_device_id, ...over });

  it('lets a manager edit a vehicle of the company, keeping its terminal', async () => {
    const res = await call(
      carUpdate,
      { info: carA({ car_number: '練馬 300 あ 99-99', available_data: area }) },
      'managerA',
    );
    expect(res.status, res.raw.body).toBe(200);
    expect(await row(fleet.A.car_id)).toMatchObject({
      car_number: '練馬 300 あ 99-99',
      lat_max: 35.8,
      car_data_id: fleet.A.car_data_id,
      company_id: companyA,
    });
  });

  it("keeps terminals and other companies' customers out of a company user's reach", async () => {
    const device = await call(carUpdate, { info: carA({ car_device_id: 'fd-3' }) }, 'managerA');
    expect(device.status).toBe(403);
    expect(device.error.errors).toEqual({ car_device_id: carMessages.deviceChangeForbidden });
    const user = await call(carUpdate, { info: carA({ user_id: fleet.B.user_id }) }, 'adminA');
    expect(user.status).toBe(400);
    expect(user.error.errors).toEqual({ user_id: carMessages.userMissing });
    expect(await row(fleet.A.car_id)).toMatchObject({ car_device_id: fleet.A.car_device_id, user_id: fleet.A.user_id });
  });

  it('answers 404 across companies, 403 to common users, 400 on bad input', async () => {
    expect(
      (
        await call(
          carUpdate,
          { info: car(fleet.B.car_id, { user_id: fleet.B.user_id, car_device_id: fleet.B.car_device_id }) },
          'adminA',
        )
      ).status,
    ).toBe(404);
    expect((await call(carUpdate, { info: carA() }, 'staffA')).status).toBe(403);
    expect((await call(carUpdate, { info: carA({ car_number: ' ' }) }, 'managerA')).error.errors).toEqual({
      'info.car_number': m.required,
    });
    expect((await call(carUpdate, { info: carA() })).status).toBe(401);
  });

  it('lets the super admin move a vehicle to another customer and terminal', async () => {
    const res = await call(
      carUpdate,
      { info: car('C000101', { user_id: 'free-a2', car_device_id: 'fd-2' }) },
      'superAdmin',
    );
    expect(res.status, res.raw.body).toBe(200);
    expect(await row('C000101')).toMatchObject({
      user_id: 'free-a2',
      company_id: companyA,
      car_device_id: 'fd-2',
      car_data_id: '352000000000001',
    });
    const taken = await call(
      carUpdate,
      { info: car('C000101', { user_id: 'free-a2', car_device_id: fleet.B.car_device_id }) },
      'superAdmin',
    );
    expect(taken.status).toBe(409);
  });
});

describe('car_status_update', () => {
  it('sets a status from 0 to 99', async () => {
    expect((await call(carStatusUpdate, { car_id: fleet.A.car_id, car_status: 42 }, 'managerA')).status).toBe(200);
    expect(await row(fleet.A.car_id)).toMatchObject({ car_status: 42 });
    const bad = await call(carStatusUpdate, { car_id: fleet.A.car_id, car_status: 100 }, 'managerA');
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.error.errors ?? {})).toEqual(['car_status']);
  });

  it('answers 403, 404 and 401 where due', async () => {
    expect((await call(carStatusUpdate, { car_id: fleet.A.car_id, car_status: 1 }, 'staffA')).status).toBe(403);
    expect((await call(carStatusUpdate, { car_id: fleet.B.car_id, car_status: 1 }, 'adminA')).status).toBe(404);
    expect((await call(carStatusUpdate, { car_id: fleet.A.car_id, car_status: 1 })).status).toBe(401);
    expect(await row(fleet.A.car_id)).toMatchObject({ car_status: 42 });
  });
});

describe('car_delete', () => {
  it('deletes (freeing the terminal) and restores', async () => {
    expect((await call(carDelete, { car_id: 'C000100', isDelete: true }, 'managerA')).status).toBe(200);
    expect(await row('C000100')).toMatchObject({ is_delete: true });
    const free = (await call(deviceList, { isRegistered: false, search_item: '0', search_text: 'fd-1' }, 'superAdmin'))
      .body.list;
    expect(free).toHaveLength(1);
    expect((await call(carDelete, { car_id: 'C000100', isDelete: false }, 'managerA')).status).toBe(200);
    expect(await row('C000100')).toMatchObject({ is_delete: false });
  });

  it('refuses a restore when the terminal went to another vehicle meanwhile', async () => {
    await call(carDelete, { car_id: 'C000100', isDelete: true }, 'adminA');
    expect((await call(carAdd, { info: car('C000102', { user_id: 'free-a2' }) }, 'superAdmin')).status).toBe(200);
    const res = await call(carDelete, { car_id: 'C000100', isDelete: false }, 'adminA');
    expect(res.status).toBe(409);
    expect(res.error.message).toBe(carMessages.restoreBlocked);
    expect(await row('C000100')).toMatchObject({ is_delete: true });
  });

  it('answers 403, 404, 400 and 401 where due', async () => {
    expect((await call(carDelete, { car_id: fleet.A.car_id, isDelete: true }, 'staffA')).status).toBe(403);
    expect((await call(carDelete, { car_id: fleet.B.car_id, isDelete: true }, 'adminA')).status).toBe(404);
    expect((await call(carDelete, unchecked({ car_id: fleet.A.car_id }), 'adminA')).status).toBe(400);
    expect((await call(carDelete, { car_id: fleet.A.car_id, isDelete: true })).status).toBe(401);
    expect(await row(fleet.B.car_id)).toMatchObject({ is_delete: false });
  });
});
