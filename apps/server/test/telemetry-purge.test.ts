import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { purgeTelemetryBefore } from '../src/telemetry/purge.repository.js';
import { createTestApp, seedFixtures, type TestApp } from './helper.js';
import { at, count, sendBatch, terminalA, terminalB } from './telemetry-support.js';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
  await seedFixtures(t.db);
  // 25 minutes of terminal A (gps and battery each minute), 3 of terminal B.
  const a = Array.from({ length: 25 }, (_, m) => [
    { type: 'gps', time: at(m), lat: 35.68, lng: 139.76 },
    { type: 'battery', time: at(m), voltage: 12.5 },
  ]).flat();
  await sendBatch(t.app, terminalA, { seq: 1, records: a });
  await sendBatch(t.app, terminalB, {
    seq: 1,
    records: [0, 1, 2].map((m) => ({ type: 'gps', time: at(m), lat: 35.4, lng: 139.6 })),
  });
});
afterAll(() => t?.close());

describe('purgeTelemetryBefore', () => {
  it('deletes rows recorded before the time, slice by slice, of every terminal and log', async () => {
    const result = await purgeTelemetryBefore(t.db, new Date(at(20)), 4);
    expect(result.deleted.gps_logs).toBe(20 + 3);
    expect(result.deleted.battery_logs).toBe(20);
    expect(result.deleted.engine_logs).toBe(0);
    // 20 rows in slices of 4 take 5 full slices and one that finds nothing; B's 3 take one.
    expect(result.statements).toBeGreaterThanOrEqual(6 + 1 + 6);
    expect(await count(t.db, 'gps_logs', terminalA.imei)).toBe(5);
    expect(await count(t.db, 'battery_logs', terminalA.imei)).toBe(5);
    expect(await count(t.db, 'gps_logs', terminalB.imei)).toBe(0);
  });

  it('keeps rows at or after the time, and does nothing the second time', async () => {
    const result = await purgeTelemetryBefore(t.db, new Date(at(20)), 4);
    expect(Object.values(result.deleted).every((n) => n === 0)).toBe(true);
    expect(await count(t.db, 'gps_logs', terminalA.imei)).toBe(5);
  });
});
