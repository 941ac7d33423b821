import { carDataSync, carDelete, LIVE_PATH, type LiveSnapshot, type LiveState } from '@fleet/contract';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { hashDeviceSecret } from '../src/credentials/device-secret.js';
import { companyA, createSignedInApp, fleet, type SignedInApp } from './helper.js';
import { TERMINAL_PASSWORD, sendBatch, terminalA } from './telemetry-support.js';

/**
 * Tenancy follows the terminal, in the live stream too: a push of terminal A
 * reaches a company only while the terminal is on one of its live vehicles,
 * decided per push (not from a list of terminals read when the stream opened),
 * and carries no field group reported before the company's period began.
 */
let t: SignedInApp;
let base: string;
/** A second terminal of company A: a push A must get, so nothing of terminal A came before it. */
const terminalA2 = { id: 'device-a2', imei: '358409100000003' };

beforeEach(async () => {
  t = await createSignedInApp(['staffA', 'adminB', 'superAdmin']);
  await t.db
    .insertInto('devices')
    .values({
      car_device_id: terminalA2.id,
      car_data_id: terminalA2.imei,
      password_hash: hashDeviceSecret(TERMINAL_PASSWORD),
    })
    .execute();
  await t.db
    .insertInto('cars')
    .values({
      car_id: 'car-a2',
      company_id: companyA,
      user_id: fleet.A.user_id,
      car_device_id: terminalA2.id,
      car_data_id: terminalA2.imei,
    })
    .execute();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address();
  base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});
afterEach(() => t.close());

let seq = 0;
/** Terminal reports now, a moment after whatever came before (a move, an earlier report). */
const report = async (terminal: { id: string }, records: Record<string, unknown>[]) => {
  await new Promise((r) => setTimeout(r, 20));
  const time = new Date().toISOString();
  const res = await sendBatch(t.app, terminal, { seq: ++seq, records: records.map((r) => ({ ...r, time })) });
  expect(res.statusCode, res.body).toBe(200);
};

/** Company A deletes its vehicle; the super admin fits A's terminal to company B's vehicle. */
async function moveTerminalToB() {
  await deleteVehicleA();
  await t.db
    .updateTable('cars')
    .set({ car_device_id: fleet.A.car_device_id, car_data_id: fleet.A.car_data_id })
    .where('car_id', '=', fleet.B.car_id)
    .execute();
}
async function deleteVehicleA() {
  const res = await t.call(carDelete, { car_id: fleet.A.car_id, isDelete: true }, 'superAdmin');
  expect(res.status, res.raw.body).toBe(200);
}

interface Stream {
  /** The next state event (after the snapshot), failing after a few seconds rather than at the test's timeout. */
  next(): Promise<LiveState>;
  snapshot: LiveState[];
  close(): void;
}

/** Opens the live stream of an account and reads its snapshot. */
async function openStream(who: 'staffA' | 'adminB' | 'superAdmin'): Promise<Stream> {
  const controller = new AbortController();
  const res = await fetch(`${base}${LIVE_PATH}`, {
    headers: { authorization: `Bearer ${t.tokens[who]}` },
    signal: controller.signal,
  });
  expect(res.status).toBe(200);
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  const event = async (): Promise<{ event: string; data: unknown }> => {
    for (;;) {
      const end = buffer.indexOf('\n\n');
      if (end >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const name = /^event: (.*)$/m.exec(block)?.[1];
        const data = /^data: (.*)$/m.exec(block)?.[1];
        if (name && data) return { event: name, data: JSON.parse(data) };
        continue;
      }
      const { value, done } = await reader.read();
      if (done) throw new Error('stream ended');
      buffer += value;
    }
  };
  const within = <T>(p: Promise<T>) =>
    Promise.race([
      p,
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`${who}: no event within 20 s`)), 20_000)),
    ]);
  const first = await within(event());
  expect(first.event).toBe('snapshot');
  return {
    snapshot: (first.data as LiveSnapshot).states,
    next: async () => {
      const e = await within(event());
      expect(e.event).toBe('state');
      return e.data as LiveState;
    },
    close: () => controller.abort(),
  };
}

describe('the live stream after a terminal changed hands', () => {
  it('(a) an already-open stream of the old company gets none of its reports; the new company gets them', async () => {
    const a = await openStream('staffA');
    const b = await openStream('adminB');
    const all = await openStream('superAdmin');
    try {
      expect(a.snapshot.map((s) => s.car_data_id)).toEqual([]);
      await moveTerminalToB();
      await report(terminalA, [{ type: 'gps', lat: 35.9, lng: 139.9 }]);
      // Published and handed to every stream of this server (the super admin's gets it).
      const pushed = await all.next();
      expect(pushed).toMatchObject({ car_data_id: terminalA.imei, lat: 35.9 });
      await report(terminalA2, [{ type: 'gps', lat: 34.1, lng: 135.1 }]);
      // A's next push is its own terminal's: nothing of terminal A came before it.
      expect(await a.next()).toMatchObject({ car_data_id: terminalA2.imei, car_id: 'car-a2' });
      expect(pushed.car_id).toBe(fleet.B.car_id);
      expect(await b.next()).toMatchObject({ car_data_id: terminalA.imei, car_id: fleet.B.car_id, lat: 35.9 });
    } finally {
      a.close();
      b.close();
      all.close();
    }
  });

  it('(b) the new company never gets a field group of the old company’s time; the super admin gets it all', async () => {
    await report(terminalA, [
      { type: 'gps', lat: 35.6, lng: 139.7, speed: 30 },
      { type: 'battery', voltage: 12.6, percentage: 90 },
    ]);
    await moveTerminalToB();
    const b = await openStream('adminB');
    const all = await openStream('superAdmin');
    try {
      // Reported for company A only: not in B's snapshot either.
      expect(b.snapshot).toEqual([]);
      await report(terminalA, [{ type: 'engine', running: 'on' }]);
      expect(await b.next()).toMatchObject({
        car_data_id: terminalA.imei,
        car_id: fleet.B.car_id,
        engine_running: 'on',
        lat: null,
        lng: null,
        speed: null,
        battery_voltage: null,
        battery_percentage: null,
      });
      expect(await all.next()).toMatchObject({
        car_data_id: terminalA.imei,
        car_id: fleet.B.car_id,
        engine_running: 'on',
        lat: 35.6,
        lng: 139.7,
        battery_voltage: 12.6,
      });
      // Its first position in B's period is B's.
      await report(terminalA, [{ type: 'gps', lat: 35.9, lng: 139.9 }]);
      expect(await b.next()).toMatchObject({ car_id: fleet.B.car_id, lat: 35.9, lng: 139.9, battery_voltage: null });
    } finally {
      b.close();
      all.close();
    }
  });

  it('(d) a data sync (car_data_sync) pushes its rebuilt state by the same rule', async () => {
    await report(terminalA, [{ type: 'gps', lat: 35.6, lng: 139.7 }]);
    await moveTerminalToB();
    await report(terminalA, [{ type: 'battery', voltage: 12.4, percentage: 80 }]);
    const b = await openStream('adminB');
    const all = await openStream('superAdmin');
    try {
      const synced = await t.call(carDataSync, { car_id: fleet.B.car_id, car_data_id: terminalA.imei }, 'adminB');
      expect(synced.status, synced.raw.body).toBe(200);
      expect(await b.next()).toMatchObject({
        car_data_id: terminalA.imei,
        car_id: fleet.B.car_id,
        lat: null,
        lng: null,
        battery_voltage: 12.4,
      });
      expect(await all.next()).toMatchObject({ car_data_id: terminalA.imei, lat: 35.6, battery_voltage: 12.4 });
    } finally {
      b.close();
      all.close();
    }
  });

  it('(c) deleting the old company’s vehicle stops its pushes of the terminal at once', async () => {
    const a = await openStream('staffA');
    const all = await openStream('superAdmin');
    try {
      await report(terminalA, [{ type: 'gps', lat: 35.6, lng: 139.7 }]);
      expect(await a.next()).toMatchObject({ car_data_id: terminalA.imei, car_id: fleet.A.car_id, lat: 35.6 });
      expect(await all.next()).toMatchObject({ car_data_id: terminalA.imei, car_id: fleet.A.car_id });
      await deleteVehicleA();
      await report(terminalA, [{ type: 'gps', lat: 35.7, lng: 139.8 }]);
      // On no live vehicle: only the super admin sees it, with no vehicle.
      const pushed = await all.next();
      expect(pushed).toMatchObject({ car_data_id: terminalA.imei, lat: 35.7 });
      await report(terminalA2, [{ type: 'gps', lat: 34.1, lng: 135.1 }]);
      expect(await a.next()).toMatchObject({ car_data_id: terminalA2.imei, car_id: 'car-a2' });
      expect(pushed.car_id).toBeNull();
    } finally {
      a.close();
      all.close();
    }
  });
});
