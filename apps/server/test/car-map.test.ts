import { carMapList, fleetStateOf } from '@fleet/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  companyA,
  companyB,
  createSignedInApp,
  fleet,
  unchecked,
  type FixtureAccount,
  type SignedInApp,
} from './helper.js';
import { sendBatch, terminalA, terminalB } from './telemetry-support.js';

/** car_map_list (the fleet map, issue #18): the vehicles of the caller's scope at their latest state. */
let t: SignedInApp;
const mapOf = async (who: FixtureAccount, body: { company_id?: string } = {}) => {
  const res = await t.call(carMapList, body, who);
  expect(res.status, res.raw.body).toBe(200);
  return res.body.list;
};

beforeAll(async () => {
  t = await createSignedInApp(['superAdmin', 'adminA', 'staffA', 'adminB']);
  const time = new Date().toISOString();
  for (const [terminal, lat] of [
    [terminalA, 35.68],
    [terminalB, 34.7],
  ] as const) {
    const records = [
      { type: 'gps', time, lat, lng: 139.7, speed: 30, heading: 90 },
      { type: 'engine', time, running: 'on' },
      { type: 'connection', time, state: 'connected' },
    ];
    expect((await sendBatch(t.app, terminal, { seq: 1, records })).statusCode).toBe(200);
  }
  await t.db
    .updateTable('cars')
    .set({ lat_min: 35.6, lat_max: 35.8, lng_min: 139.6, lng_max: 139.8 })
    .where('car_id', '=', fleet.A.car_id)
    .execute();
});
afterAll(() => t?.close());

describe('car_map_list', () => {
  it('gives a company its vehicles at their latest position, with the available region, judged 走行中', async () => {
    const list = await mapOf('staffA');
    expect(list.map((c) => c.car_id)).toEqual([fleet.A.car_id]);
    const [car] = list;
    expect(car).toMatchObject({
      car_data_id: fleet.A.car_data_id,
      company_id: companyA,
      state: { lat: 35.68, lng: 139.7, engine_running: 'on' },
    });
    expect(car!.areas).toEqual([{ lat_min: 35.6, lat_max: 35.8, lng_min: 139.6, lng_max: 139.8 }]);
    expect(fleetStateOf(car!.state, car!.areas, new Date())).toBe('moving');
  });

  it('never shows another company: asking for it still gives one’s own', async () => {
    const list = await mapOf('adminA', { company_id: companyB });
    expect(list.map((c) => c.car_id)).toEqual([fleet.A.car_id]);
    expect(JSON.stringify(list)).not.toContain(fleet.B.car_data_id);
    expect((await mapOf('adminB')).map((c) => c.car_id)).toEqual([fleet.B.car_id]);
  });

  it('lets the super admin see every company or narrow to one', async () => {
    expect((await mapOf('superAdmin')).map((c) => c.car_id)).toEqual([fleet.A.car_id, fleet.B.car_id]);
    const onlyB = await mapOf('superAdmin', { company_id: companyB });
    expect(onlyB.map((c) => [c.car_id, c.state?.lat])).toEqual([[fleet.B.car_id, 34.7]]);
  });

  it('hides a terminal’s state from a company after the terminal left its vehicle', async () => {
    await t.db
      .updateTable('cars')
      .set({ car_device_id: null, car_data_id: null })
      .where('car_id', '=', fleet.A.car_id)
      .execute();
    const [car] = await mapOf('adminA');
    expect(car).toMatchObject({ car_id: fleet.A.car_id, car_data_id: null, state: null });
  });

  it('refuses a malformed company and an anonymous caller', async () => {
    const bad = await t.call(carMapList, { company_id: unchecked('no spaces') }, 'superAdmin');
    expect(bad.status).toBe(400);
    expect(bad.error.errors?.company_id).toBeTruthy();
    expect((await t.call(carMapList, {})).status).toBe(401);
  });
});
