import { DEVICE_BATCH_PATH } from '@fleet/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reserveCommand } from '../src/commands/terminal-commands.repository.js';
import { distanceM } from '../src/simulator/geo.js';
import { createFleet, type Fleet } from '../src/simulator/fleet.js';
import { basicAuth, type Transport } from '../src/simulator/transport.js';
import { accounts, createTestApp, seedFixtures, type TestApp } from './helper.js';
import { TERMINAL_PASSWORD, latest, terminalA, terminalB } from './telemetry-support.js';

let t: TestApp;
let fleet: Fleet;
let calls = 0;
let lostReplies = 0;

/** The gateway through app.inject; every seventh reply is "lost" after the server stored the batch. */
const flakyInject = (): Transport => async (creds, batch) => {
  const res = await t.app.inject({
    method: 'POST',
    url: DEVICE_BATCH_PATH,
    payload: batch,
    headers: { authorization: basicAuth(creds) },
  });
  if (++calls % 7 === 0) {
    lostReplies++;
    throw new Error('socket hang up');
  }
  return { status: res.statusCode, body: res.json() };
};

const START = Date.parse('2026-01-15T00:00:00Z');

beforeAll(async () => {
  t = await createTestApp();
  await seedFixtures(t.db);
  fleet = createFleet({
    terminals: [
      { car_device_id: terminalA.id, password: TERMINAL_PASSWORD, car_data_id: terminalA.imei },
      { car_device_id: terminalB.id, password: TERMINAL_PASSWORD, car_data_id: terminalB.imei },
      { car_device_id: 'device-unknown', password: 'whatever-pw', car_data_id: '000' },
    ],
    transport: flakyInject(),
    seed: 4,
    start: START,
    vehicle: { parkSeconds: [5, 30] },
  });
  await fleet.run(900);
});
afterAll(() => t?.close());

describe('the fleet simulator against the app', () => {
  it('stores plausible routes around Tokyo', async () => {
    for (const imei of [terminalA.imei, terminalB.imei]) {
      const gps = await t.db
        .selectFrom('gps_logs')
        .selectAll()
        .where('car_data_id', '=', imei)
        .orderBy('recorded_at')
        .execute();
      expect(gps.length).toBeGreaterThan(50);
      for (const p of gps) {
        expect(p.lat).toBeGreaterThan(35.5);
        expect(p.lat).toBeLessThan(35.8);
        expect(p.lng).toBeGreaterThan(139.5);
        expect(p.lng).toBeLessThan(139.9);
        expect(p.speed).toBeLessThan(80);
      }
      for (let i = 1; i < gps.length; i++) {
        const seconds = (new Date(gps[i]!.recorded_at).getTime() - new Date(gps[i - 1]!.recorded_at).getTime()) / 1000;
        expect(seconds).toBeGreaterThan(0);
        expect((distanceM(gps[i - 1]!, gps[i]!) / seconds) * 3.6).toBeLessThan(90);
      }
      const times = gps.map((p) => new Date(p.recorded_at).getTime());
      expect(Math.min(...times)).toBeGreaterThanOrEqual(START);
      expect(Math.max(...times)).toBeLessThanOrEqual(START + 900_000);
    }
  });

  it('stores engine, battery, sensor and OBD2 data and a latest state', async () => {
    for (const table of ['engine_logs', 'battery_logs', 'sensor_logs', 'obd2_logs', 'connection_logs'] as const) {
      const n = await t.db
        .selectFrom(table)
        .select(sql<number>`count(*)::int`.as('n'))
        .where('car_data_id', '=', terminalA.imei)
        .executeTakeFirstOrThrow();
      expect(n.n, table).toBeGreaterThan(0);
    }
    const battery = await t.db.selectFrom('battery_logs').select(['voltage', 'percentage']).execute();
    for (const b of battery) {
      expect(b.voltage).toBeGreaterThan(11);
      expect(b.voltage).toBeLessThan(15);
      expect(b.percentage).toBeLessThanOrEqual(100);
    }
    const state = await latest(t.db, terminalA.imei);
    expect(state).toMatchObject({ engine_line: 'connected' });
    expect(state?.lat).not.toBeNull();
  });

  it('retries lost replies with the same seq, so nothing is stored twice', async () => {
    expect(lostReplies).toBeGreaterThan(0);
    const dupes = await sql<{ n: number }>`
      SELECT count(*)::int AS n FROM (
        SELECT car_data_id, recorded_at FROM gps_logs GROUP BY car_data_id, recorded_at HAVING count(*) > 1
      ) d`.execute(t.db);
    expect(dupes.rows[0]!.n).toBe(0);
    expect(fleet.stats().rejected).toBe(0);
  });

  it('stops a terminal the gateway does not know', () => {
    expect(fleet.terminals[2]!.refused).toBe('HTTP 401');
    expect(fleet.stats().refused).toBe(1);
  });

  it('executes an engine command it receives and reports the result', async () => {
    const id = await reserveCommand(t.db, {
      car_data_id: terminalA.imei,
      cmd_type: 'set_engine_boot_permission',
      cmd_info: { cmd: 1 },
      created_by: accounts.adminA.account_id,
    });
    await fleet.run(30);
    const cmd = await t.db
      .selectFrom('reserved_commands')
      .select(['state', 'result'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(cmd.state).toBe(3);
    expect(cmd.result).toMatchObject({ success: true });
    expect(fleet.terminals[0]!.vehicle.engineLine).toBe('disconnected');
    expect((await latest(t.db, terminalA.imei))?.engine_line).toBe('disconnected');
  });
});
