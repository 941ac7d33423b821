import {
  areaMessages,
  AREA_LIST_MAX,
  carAvailableAreasUpdate,
  carAvailableUpdate,
  carDisableAreasUpdate,
  carGetAreaStatus,
  carGetAvailableAreas,
  carGetAvailableData,
  carGetDisableAreas,
  type AreaRow,
} from '@fleet/contract';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { callWith, createSignedInApp, fleet, unchecked, type SignedInApp } from './helper.js';
import { sendBatch, terminalA } from './telemetry-support.js';

let t: SignedInApp;
beforeAll(async () => {
  t = await createSignedInApp(['staffA', 'adminB', 'superAdmin']);
});
afterAll(() => t?.close());
beforeEach(async () => {
  await t.db.deleteFrom('areas').execute();
  await t.db.updateTable('cars').set({ lat_min: null, lat_max: null, lng_min: null, lng_max: null }).execute();
});

const call: SignedInApp['call'] = (...args) => t.call(...args);
const carA = fleet.A.car_id;
const tokyo = { name: '東京駅周辺', lat_min: 35.67, lat_max: 35.69, lng_min: 139.76, lng_max: 139.78 };
const osaka = { name: '大阪', lat_min: 34.6, lat_max: 34.8, lng_min: 135.4, lng_max: 135.6 };
const rows = (list: AreaRow[]) => list.map(({ area_id: _id, ...a }) => a);
const availableAreas = async (car_id = carA) =>
  rows((await call(carGetAvailableAreas, { car_id }, 'staffA')).body.available_areas);
const disableAreas = async (car_id = carA) =>
  rows((await call(carGetDisableAreas, { car_id }, 'staffA')).body.disable_areas);

describe('available_data', () => {
  it('reads, sets and clears the vehicle rectangle', async () => {
    const get = async () => (await call(carGetAvailableData, { car_id: carA }, 'staffA')).body;
    expect((await get()).available_data).toBeNull();
    const data = { lat_min: 35.5, lat_max: 35.9, lng_min: '139.5', lng_max: 139.9 };
    expect((await call(carAvailableUpdate, { car_id: carA, available_data: data }, 'staffA')).status).toBe(200);
    expect((await get()).available_data).toEqual({ lat_min: 35.5, lat_max: 35.9, lng_min: 139.5, lng_max: 139.9 });
    const empty = { lat_min: '', lat_max: '', lng_min: '', lng_max: '' };
    expect((await call(carAvailableUpdate, { car_id: carA, available_data: empty }, 'staffA')).status).toBe(200);
    expect((await get()).available_data).toBeNull();
  });

  it('refuses a half-filled or inverted rectangle with Japanese field errors and writes nothing', async () => {
    const res = await call(
      carAvailableUpdate,
      { car_id: carA, available_data: unchecked({ lat_min: 36, lat_max: 35, lng_min: 139, lng_max: '' }) },
      'staffA',
    );
    expect(res.status).toBe(400);
    expect(res.error.errors).toEqual({
      'available_data.lng_max': '必須項目です',
      'available_data.lat_max': '最小値より大きい値を入力してください',
    });
    const car = await t.db
      .selectFrom('cars')
      .select(['lat_min', 'lng_min'])
      .where('car_id', '=', carA)
      .executeTakeFirstOrThrow();
    expect(car).toEqual({ lat_min: null, lng_min: null });
  });
});

describe('area lists', () => {
  it('replace the whole list each time, in the order given, per kind', async () => {
    let res = await call(carAvailableAreasUpdate, { car_id: carA, available_areas: [tokyo, osaka] }, 'staffA');
    expect(res.body).toEqual({ ok: true, count: 2 });
    await call(carDisableAreasUpdate, { car_id: carA, disable_areas: [osaka] }, 'staffA');
    expect(await availableAreas()).toEqual([tokyo, osaka]);
    res = await call(
      carAvailableAreasUpdate,
      { car_id: carA, available_areas: [{ ...osaka, name: undefined }] },
      'staffA',
    );
    expect(res.status).toBe(200);
    expect(await availableAreas()).toEqual([{ ...osaka, name: '' }]);
    expect(await disableAreas()).toEqual([osaka]);
    await call(carAvailableAreasUpdate, { car_id: carA, available_areas: [] }, 'staffA');
    expect(await availableAreas()).toEqual([]);
  });

  it('refuse a list with one bad area as a whole, with Japanese errors per area and field', async () => {
    await call(carDisableAreasUpdate, { car_id: carA, disable_areas: [tokyo] }, 'staffA');
    const bad = [osaka, { ...tokyo, lat_min: 35.7 }, { ...tokyo, lng_max: 200, name: 'x'.repeat(65) }];
    const res = await call(carDisableAreasUpdate, { car_id: carA, disable_areas: bad }, 'staffA');
    expect(res.status).toBe(400);
    expect(res.error.errors).toEqual({
      'disable_areas.1.lat_max': '最小値より大きい値を入力してください',
      'disable_areas.2.lng_max': '経度は-180〜180の範囲で入力してください',
      'disable_areas.2.name': '入力が長すぎます',
    });
    const tooMany = await call(
      carDisableAreasUpdate,
      { car_id: carA, disable_areas: Array.from({ length: AREA_LIST_MAX + 1 }, () => tokyo) },
      'staffA',
    );
    expect(tooMany.error.errors).toEqual({ disable_areas: areaMessages.tooManyAreas });
    expect(await disableAreas()).toEqual([tokyo]);
  });

  it('never mix two replacements made at the same time', async () => {
    const one = Array.from({ length: 20 }, (_, i) => ({ ...tokyo, name: `one-${i}` }));
    const two = Array.from({ length: 20 }, (_, i) => ({ ...osaka, name: `two-${i}` }));
    const send = (list: typeof one) => call(carAvailableAreasUpdate, { car_id: carA, available_areas: list }, 'staffA');
    const results = await Promise.all([send(one), send(two), send(one), send(two)]);
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    const final = await availableAreas();
    expect([one, two]).toContainEqual(final);
  });

  it('are frozen on a deleted vehicle', async () => {
    await t.db.updateTable('cars').set({ is_delete: true }).where('car_id', '=', carA).execute();
    try {
      const res = await call(carAvailableAreasUpdate, { car_id: carA, available_areas: [tokyo] }, 'staffA');
      expect(res.status).toBe(409);
      expect(res.error.message).toBe(areaMessages.carDeleted);
    } finally {
      await t.db.updateTable('cars').set({ is_delete: false }).where('car_id', '=', carA).execute();
    }
  });
});

describe('judgement of the current position', () => {
  const status = async () => (await call(carGetAreaStatus, { car_id: carA }, 'staffA')).body;

  it('is false with no position or no areas, then follows docs/product.md §4 on the last reported position', async () => {
    expect(await status()).toMatchObject({ position: null, outsideAvailable: false, insideForbidden: false });
    // Now, not at a fixed past time: a test above deleted and restored the vehicle, and a company reads
    // only what the terminal reported while on its live vehicle (terminal_periods).
    await sendBatch(t.app, terminalA, {
      seq: 1,
      records: [{ type: 'gps', time: new Date().toISOString(), lat: 35.68, lng: 139.77 }],
    });
    expect(await status()).toMatchObject({
      position: { lat: 35.68, lng: 139.77 },
      outsideAvailable: false,
      insideForbidden: false,
      availableCount: 0,
    });

    // Available only in Osaka: Tokyo is outside. Adding Tokyo (as available_data) brings it inside.
    await call(carAvailableAreasUpdate, { car_id: carA, available_areas: [osaka] }, 'staffA');
    expect(await status()).toMatchObject({ outsideAvailable: true, availableCount: 1 });
    await call(carAvailableUpdate, { car_id: carA, available_data: tokyo }, 'staffA');
    expect(await status()).toMatchObject({ outsideAvailable: false, availableCount: 2 });

    await call(carDisableAreasUpdate, { car_id: carA, disable_areas: [osaka] }, 'staffA');
    expect(await status()).toMatchObject({ insideForbidden: false, disableCount: 1 });
    await call(carDisableAreasUpdate, { car_id: carA, disable_areas: [osaka, tokyo] }, 'staffA');
    expect(await status()).toMatchObject({ insideForbidden: true, disableCount: 2 });
  });
});

describe('who may', () => {
  const calls = (car_id: string) => [
    callWith(carGetAvailableData, { car_id }),
    callWith(carAvailableUpdate, { car_id, available_data: tokyo }),
    callWith(carGetAvailableAreas, { car_id }),
    callWith(carAvailableAreasUpdate, { car_id, available_areas: [tokyo] }),
    callWith(carGetDisableAreas, { car_id }),
    callWith(carDisableAreasUpdate, { car_id, disable_areas: [tokyo] }),
    callWith(carGetAreaStatus, { car_id }),
  ];

  it('lets a common user work on the own company vehicles and the super admin on all', async () => {
    for (const c of calls(carA)) expect((await c.send(t.app, t.tokens.staffA)).status, c.call.path).toBe(200);
    for (const c of calls(fleet.B.car_id))
      expect((await c.send(t.app, t.tokens.superAdmin)).status, c.call.path).toBe(200);
  });

  it("answers another company's vehicle as not found and writes nothing", async () => {
    for (const c of calls(fleet.B.car_id)) expect((await c.send(t.app, t.tokens.staffA)).status, c.call.path).toBe(404);
    for (const c of calls(carA)) expect((await c.send(t.app, t.tokens.adminB)).status, c.call.path).toBe(404);
    expect(await t.db.selectFrom('areas').select('id').execute()).toEqual([]);
  });
});
