import { OSMAND_PATH } from '@fleet/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeGt06Login } from '../src/gateway/tcp/gt06-device.js';
import { gt06Protocol } from '../src/gateway/tcp/gt06-link.js';
import { encodeLogin } from '../src/gateway/tcp/teltonika-device.js';
import { teltonikaProtocol } from '../src/gateway/tcp/teltonika-link.js';
import { createTestApp, seedFixtures, type TestApp } from './helper.js';
import { DeviceSocket, linkGateway, listen } from './link-support.js';
import { TERMINAL_PASSWORD, at, count, sendBatch, terminalA, terminalB } from './telemetry-support.js';

/**
 * One way in per terminal: the protocol it is registered with. The JSON gateway (docs/device-protocol.md
 * §1-9) is the way in of terminals registered with the `json` protocol only: a terminal registered as OsmAnd, Teltonika or GT06 that has a password must not post
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

describe('GET /device/osmand/<password> and the terminal protocol', () => {
  it.each(['json', 'teltonika', 'gt06'] as const)(
    'refuses a terminal registered as %s that has a password with 401, storing nothing',
    async (p) => {
      await t.db.updateTable('devices').set({ protocol: p }).where('car_data_id', '=', terminalA.imei).execute();
      const before = await count(t.db, 'device_batches', terminalA.imei);
      const res = await t.app.inject({
        method: 'GET',
        url: `${OSMAND_PATH}/${TERMINAL_PASSWORD}?id=${terminalA.imei}&lat=35.68&lon=139.76&timestamp=1768446000`,
      });
      expect(res.statusCode).toBe(401);
      expect(await count(t.db, 'device_batches', terminalA.imei)).toBe(before);
    },
  );
});

describe('the TCP listeners and the terminal protocol', () => {
  it('refuse a JSON or OsmAnd terminal at login (Teltonika answers 00, GT06 closes), and the other TCP protocol', async () => {
    const { gateway, lines } = linkGateway(t.db);
    const teltonika = await listen(gateway, teltonikaProtocol);
    const gt06 = await listen(gateway, gt06Protocol);
    try {
      for (const p of ['json', 'osmand', 'gt06'] as const) {
        await t.db.updateTable('devices').set({ protocol: p }).where('car_data_id', '=', terminalA.imei).execute();
        const d = await DeviceSocket.open(teltonika.port);
        d.send(encodeLogin(terminalA.imei));
        expect(await d.take(1), p).toEqual(Buffer.from([0]));
        expect(await d.waitClosed()).toBe(true);
      }
      for (const p of ['json', 'osmand', 'teltonika'] as const) {
        await t.db.updateTable('devices').set({ protocol: p }).where('car_data_id', '=', terminalA.imei).execute();
        const d = await DeviceSocket.open(gt06.port);
        d.send(encodeGt06Login(terminalA.imei, 1));
        expect(await d.waitClosed(), p).toBe(true);
        expect(d.received.length).toBe(0);
      }
      const refusals = lines.filter((l) => l.msg === 'terminal login refused');
      expect(refusals.map((l) => (l.obj as { reason: string }).reason)).toEqual(Array(6).fill('protocol'));
      expect(gateway.connected).toBe(0);
    } finally {
      await gateway.stop();
      await teltonika.close();
      await gt06.close();
      await t.db.updateTable('devices').set({ protocol: 'json' }).where('car_data_id', '=', terminalA.imei).execute();
    }
  });
});
