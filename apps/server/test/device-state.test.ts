import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rebuildLatestState } from '../src/telemetry/latest-state.repository.js';
import { createTestApp, seedFixtures, type TestApp } from './helper.js';
import { at, latest, sendBatch, terminalA } from './telemetry-support.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await seedFixtures(t.db);
});
afterAll(() => t?.close());

const state = async () => (await latest(t.db, terminalA.imei))?.device_state;
const send = async (seq: number, records: Record<string, unknown>[]) =>
  expect((await sendBatch(t.app, terminalA, { seq, records })).statusCode).toBe(200);
const gps = (m: number) => ({ type: 'gps', time: at(m), lat: 35.68, lng: 139.76 });
const error = (m: number, status_code: number) => ({ type: 'error', time: at(m), error_type: 'sensor', status_code });

describe('device state (正常 / エラー発生 / 状態不明)', () => {
  it('is unknown before the first report, normal after a report without errors, and follows faults and recoveries', async () => {
    expect(await state()).toBeUndefined();
    await send(1, [gps(0)]);
    expect(await state()).toBe(0);
    await send(2, [gps(1), error(1, 1002)]);
    expect(await state()).toBe(1002);
    // An open fault stays until its recovery record, however many reports come without errors.
    await send(3, [gps(2)]);
    expect(await state()).toBe(1002);
    // A late batch with an older recovery does not clear a newer fault.
    await send(4, [error(0, 0)]);
    expect(await state()).toBe(1002);
    await send(5, [error(3, 0)]);
    expect(await state()).toBe(0);
  });

  it('is rebuilt from the logs: normal when they hold reports but no error record', async () => {
    await t.db.deleteFrom('error_logs').where('car_data_id', '=', terminalA.imei).execute();
    await t.db
      .updateTable('device_latest_state')
      .set({ device_state: null })
      .where('car_data_id', '=', terminalA.imei)
      .execute();
    expect((await rebuildLatestState(t.db, terminalA.imei))?.device_state).toBe(0);
  });
});
