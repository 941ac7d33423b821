import {
  LOG_EXPORT_PATH,
  carAdd,
  carDataSync,
  carDelete,
  carGetBatteryLog,
  carGetGpsLog,
  carGetLatestState,
  carList,
  carMapList,
  type Call,
  type CallRequest,
  type TelemetryState,
} from '@fleet/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  callAs,
  companyB,
  createTestApp,
  fleet,
  login,
  seedFixtures,
  type FixtureAccount,
  type TestApp,
} from './helper.js';
import { at, sendBatch, terminalA } from './telemetry-support.js';

/**
 * Telemetry is keyed by the terminal; a company reads only what the terminal
 * sent while it was on one of its live vehicles (terminal_periods). Terminal A
 * reports for company A, moves to company B's new vehicle, reports for B, and
 * comes back to company A.
 */
let t: TestApp;
const tokens = {} as Record<FixtureAccount, string>;
let seq = 0;
const report = async (time: string, lat: number) => {
  const records = [
    { type: 'gps', time, lat, lng: 139.7, speed: 20, heading: 0 },
    { type: 'battery', time, voltage: 12.5, percentage: 80 },
  ];
  const res = await sendBatch(t.app, terminalA, { seq: ++seq, records });
  expect(res.json().accepted).toBe(2);
};
const call = <C extends Call>(c: C, body: NoInfer<CallRequest<C>>, who: FixtureAccount) =>
  callAs(t.app, tokens[who], c, body);
const gpsTimes = async (who: FixtureAccount) => {
  const res = await call(carGetGpsLog, { car_data_id: terminalA.imei }, who);
  expect(res.status, res.raw.body).toBe(200);
  return res.body.list.map((p) => p.recorded_at);
};
const batteryTimes = async (who: FixtureAccount) => {
  const res = await call(carGetBatteryLog, { car_data_id: terminalA.imei }, who);
  expect(res.status, res.raw.body).toBe(200);
  return res.body.list.map((p) => p.recorded_at);
};
/** Just after now, so a record lies after the move that came before it. */
const justAfter = async () => {
  await new Promise((r) => setTimeout(r, 20));
  return new Date().toISOString();
};

beforeAll(async () => {
  t = await createTestApp();
  await seedFixtures(t.db);
  for (const who of ['superAdmin', 'adminA', 'adminB'] as const) tokens[who] = await login(t.app, who);
  await t.db
    .insertInto('car_users')
    .values({ user_id: 'move-b', company_id: companyB, birthday: null, gender: null })
    .execute();
});
afterAll(() => t?.close());

describe('a terminal moved to another company', () => {
  const carB = {
    car_id: 'C-MOVE-B',
    car_number: '横浜 300 か 12-34',
    car_type: 'ホンダ フィット',
    car_vin: 'GK3-7654321',
    user_id: 'move-b',
    car_device_id: fleet.A.car_device_id,
  };
  let forB: string;

  it('before: company A reads its terminal whole history (from before it was fitted, too)', async () => {
    await report(at(0), 35.1);
    await report(at(1), 35.2);
    expect(await gpsTimes('adminA')).toEqual([at(0), at(1)]);
    expect(await batteryTimes('adminA')).toEqual([at(1), at(0)]);
  });

  it('after the move: company B reads only what the terminal sent since; A no longer reads it; the super admin reads all', async () => {
    expect((await call(carDelete, { car_id: fleet.A.car_id, isDelete: true }, 'superAdmin')).status).toBe(200);
    const added = await call(carAdd, { info: carB }, 'superAdmin');
    expect(added.status, added.raw.body).toBe(200);
    const stateFor = async (who: FixtureAccount) =>
      (await call(carGetLatestState, { car_data_id: terminalA.imei }, who)).body.state;
    const stateForB = () => stateFor('adminB');
    /** The vehicle list's part of a state (CarListState). */
    const listPart = (s: TelemetryState | null) =>
      s && {
        engine_running: s.engine_running,
        engine_line: s.engine_line,
        connection: s.connection,
        device_state: s.device_state,
        last_seen_at: s.last_seen_at,
      };
    /** The vehicle list reads the states in its page's statement: the same masking as the detail. */
    const listedFor = async (who: FixtureAccount) => {
      const res = await call(carList, { search_item: '0', search_text: carB.car_id, limit: 100 }, who);
      expect(res.status, res.raw.body).toBe(200);
      return res.body.list.find((r) => r.car_id === carB.car_id)?.latest;
    };
    /** The fleet map reads them the same way. */
    const mappedFor = async (who: FixtureAccount) => {
      const res = await call(carMapList, {}, who);
      expect(res.status, res.raw.body).toBe(200);
      return res.body.list.find((r) => r.car_id === carB.car_id)?.state;
    };
    // The last position it reported for company A is not shown to B.
    expect(await stateForB()).toBeNull();
    expect(await listedFor('adminB')).toBeNull();
    expect(await mappedFor('adminB')).toBeNull();
    expect((await stateFor('superAdmin'))?.car_data_id).toBe(terminalA.imei);
    expect(await listedFor('superAdmin')).toEqual(listPart(await stateFor('superAdmin')));
    expect((await mappedFor('superAdmin'))?.car_data_id).toBe(terminalA.imei);
    // A record the terminal kept from company A's time and delivers late stays company A's.
    await report(at(2), 35.3);
    expect(await stateForB()).toBeNull();
    const synced = await call(carDataSync, { car_id: carB.car_id, car_data_id: terminalA.imei }, 'adminB');
    expect(synced.status, synced.raw.body).toBe(200);
    expect(synced.body.state).toBeNull();
    forB = await justAfter();
    await report(forB, 35.4);

    expect(await gpsTimes('adminB')).toEqual([forB]);
    expect(await batteryTimes('adminB')).toEqual([forB]);
    expect((await stateForB())?.lat).toBe(35.4);
    expect(await listedFor('adminB')).toEqual(listPart(await stateForB()));
    expect(await mappedFor('adminB')).toEqual(await stateForB());
    expect((await call(carGetGpsLog, { car_data_id: terminalA.imei }, 'adminA')).status).toBe(404);
    expect(await gpsTimes('superAdmin')).toEqual([at(0), at(1), at(2), forB]);
  });

  it('the CSV export (the COPY path on PostgreSQL, the row path on PGlite) holds only B’s time for B', async () => {
    const csv = async (kind: string, who: FixtureAccount) => {
      const res = await t.app.inject({
        method: 'GET',
        url: `${LOG_EXPORT_PATH}?${new URLSearchParams({ kind, car_data_id: terminalA.imei })}`,
        headers: { authorization: `Bearer ${tokens[who]}` },
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.body.trim().split(/\r?\n/).slice(1);
    };
    for (const kind of ['gps', 'battery']) {
      expect(await csv(kind, 'adminB')).toHaveLength(1);
      expect(await csv(kind, 'superAdmin')).toHaveLength(4);
    }
  });

  it('the route and the logs of B filter by date inside its period too', async () => {
    const res = await call(carGetBatteryLog, { car_data_id: terminalA.imei, from: at(-10), to: at(10) }, 'adminB');
    expect(res.body.list).toEqual([]);
  });

  it('back at company A: A reads its own times again, never B’s', async () => {
    expect((await call(carDelete, { car_id: carB.car_id, isDelete: true }, 'superAdmin')).status).toBe(200);
    expect((await call(carDelete, { car_id: fleet.A.car_id, isDelete: false }, 'superAdmin')).status).toBe(200);
    const again = await justAfter();
    await report(again, 35.5);
    expect(await gpsTimes('adminA')).toEqual([at(0), at(1), at(2), again]);
    expect((await call(carGetGpsLog, { car_data_id: terminalA.imei }, 'adminB')).status).toBe(404);
  });
});
