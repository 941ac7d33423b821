import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, seedFixtures, type TestApp } from './helper.js';
import { at, count, sendBatch, terminalA, terminalB } from './telemetry-support.js';

/**
 * The JSON gateway (docs/device-protocol.md §1-9) is the way in of terminals registered with the `json`
 * protocol only: a terminal registered as OsmAnd, Teltonika or GT06 that has a password must not post
 * JSON batches (its records would bypass its adapter, and it would be handed JSON commands). The answer
 * is the same 401 as a wrong password, so nothing is learnt about the terminal.
 */
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
  await seedFixtures(t.db);
});
afterAll(async () => {
  await t?.close();
});

const gps = (minute: number) => ({ type: 'gps', time: at(minute), lat: 35.68, lng: 139.76, speed: 10 });

describe('POST /device/v1/batch and the terminal protocol', () => {
  it.each(['osmand', 'teltonika', 'gt06'] as const)(
    'refuses a terminal registered as %s with 401, storing nothing',
    async (p) => {
      await t.db.updateTable('devices').set({ protocol: p }).where('car_data_id', '=', terminalA.imei).execute();
      const before = await count(t.db, 'device_batches', terminalA.imei);
      const res = await sendBatch(t.app, terminalA, { seq: 1, records: [gps(1)] });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ code: 'UNAUTHORIZED' });
      expect(await count(t.db, 'device_batches', terminalA.imei)).toBe(before);
      expect(await count(t.db, 'gps_logs', terminalA.imei)).toBe(0);
    },
  );

  it('accepts the same terminal once it is registered as json again, and a json terminal throughout', async () => {
    await t.db.updateTable('devices').set({ protocol: 'json' }).where('car_data_id', '=', terminalA.imei).execute();
    expect((await sendBatch(t.app, terminalA, { seq: 2, records: [gps(2)] })).statusCode).toBe(200);
    expect((await sendBatch(t.app, terminalB, { seq: 1, records: [gps(3)] })).statusCode).toBe(200);
    expect(await count(t.db, 'gps_logs', terminalA.imei)).toBe(1);
  });
});
