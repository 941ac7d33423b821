import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { GT06, encodeGt06Ack, encodeGt06Frame } from '../src/gateway/tcp/gt06-codec.js';
import {
  encodeGt06Heartbeat,
  encodeGt06Location,
  encodeGt06Login,
  encodeGt06Reply,
  readGt06Command,
} from '../src/gateway/tcp/gt06-device.js';
import { gt06Protocol } from '../src/gateway/tcp/gt06-link.js';
import type { LinkGateway } from '../src/gateway/tcp/link-gateway.js';
import type { LinkListener } from '../src/gateway/tcp/link-listener.js';
import { getSlot, reserveEngineOk, stepUp } from './engine-support.js';
import { createTestApp, fleet, login, seedFixtures, type TestApp } from './helper.js';
import { DeviceSocket, linkGateway, listen, setProtocol, sleep, until } from './link-support.js';
import { latest } from './telemetry-support.js';

/** GT06 over a real socket: login, heartbeat and location acknowledged after the commit, 0x80 commands and 0x15 replies. */
let t: TestApp;
let gateway: LinkGateway;
let listener: LinkListener;
let token = '';
const imei = fleet.B.car_data_id;

beforeAll(async () => {
  t = await createTestApp();
  await seedFixtures(t.db);
  await setProtocol(t.db, fleet.B.car_device_id, 'gt06');
  token = await login(t.app, 'adminB');
  await stepUp(t.app, token);
  ({ gateway } = linkGateway(t.db));
  listener = await listen(gateway, gt06Protocol);
});
afterAll(async () => {
  await gateway?.stop();
  await listener?.close();
  await t?.close();
});
beforeEach(async () => {
  await t.db.deleteFrom('reserved_command_events').execute();
  await t.db.deleteFrom('reserved_commands').execute();
});

let serial = 0;
let clock = Date.now() - 3_600_000;
/** Reads one frame the server sent. */
async function nextFrame(d: DeviceSocket): Promise<Buffer> {
  const head = await d.take(3);
  return Buffer.concat([head, await d.take(head[2]! + 2)]);
}

async function loggedIn(): Promise<DeviceSocket> {
  const d = await DeviceSocket.open(listener.port);
  const s = ++serial;
  d.send(encodeGt06Login(imei, s));
  expect(await nextFrame(d)).toEqual(encodeGt06Ack(GT06.login, s));
  await until(() => gateway.connected > 0);
  return d;
}

const gpsCount = async () =>
  Number(
    (await sql<{ n: number }>`SELECT count(*)::int AS n FROM gps_logs WHERE car_data_id = ${imei}`.execute(t.db))
      .rows[0]!.n,
  );

describe('GT06 data', () => {
  it('closes an unknown terminal without an answer', async () => {
    const d = await DeviceSocket.open(listener.port);
    d.send(encodeGt06Login('999999999999999', 1));
    expect(await d.waitClosed()).toBe(true);
    expect(d.received.length).toBe(0);
  });
  it('closes a connection whose first frame is not a login', async () => {
    const d = await DeviceSocket.open(listener.port);
    d.send(encodeGt06Heartbeat({ acc: true, relayCut: false, voltageLevel: 5, gsmSignal: 4 }, 1));
    expect(await d.waitClosed()).toBe(true);
  });
  it('stores location and heartbeat, acknowledging each after the commit; a resent location is stored once', async () => {
    const d = await loggedIn();
    const before = await gpsCount();
    const location = encodeGt06Location(
      { time: new Date((clock += 1000)), lat: 35.6586, lng: 139.7454, speed: 0, course: 180, acc: true },
      ++serial,
    );
    d.send(location);
    expect(await nextFrame(d)).toEqual(encodeGt06Ack(GT06.gpsLbs2, serial));
    expect(await gpsCount()).toBe(before + 1);
    d.send(location);
    expect(await nextFrame(d)).toEqual(encodeGt06Ack(GT06.gpsLbs2, serial));
    expect(await gpsCount()).toBe(before + 1);
    d.send(encodeGt06Heartbeat({ acc: false, relayCut: true, voltageLevel: 4, gsmSignal: 3 }, ++serial));
    expect(await nextFrame(d)).toEqual(encodeGt06Ack(GT06.heartbeat, serial));
    expect(await latest(t.db, imei)).toMatchObject({
      lat: 35.6586,
      lng: 139.7454,
      engine_running: 'off',
      engine_line: 'disconnected',
      connection: 'connected',
    });
    d.send(Buffer.from('garbage!'));
    expect(await d.waitClosed()).toBe(true);
  });
  it('stores a position once whatever frame carries it again (another serial, 0x12, an alarm), acknowledging each', async () => {
    const d = await loggedIn();
    const before = await gpsCount();
    const fix = { time: new Date((clock += 1000)), lat: 35.6586, lng: 139.7454, speed: 20, course: 90, acc: true };
    const location = encodeGt06Location(fix, ++serial);
    d.send(location);
    expect(await nextFrame(d)).toEqual(encodeGt06Ack(GT06.gpsLbs2, serial));
    // The location's content: after 78 78, the length and the protocol byte; before the serial and the CRC.
    const content = location.subarray(4, 4 + location[2]! - 5);
    const gpsBlock = content.subarray(0, 18);
    for (const [protocol, body] of [
      [GT06.gpsLbs2, content],
      [GT06.gpsLbs, content.subarray(0, 26)],
      // An alarm opens with the same position, then LBS and the status (vibration).
      [
        GT06.alarm,
        Buffer.concat([gpsBlock, Buffer.from('0901b80a123400abcd', 'hex'), Buffer.from('0206030301', 'hex')]),
      ],
    ] as const) {
      d.send(encodeGt06Frame(protocol, body, ++serial));
      expect(await nextFrame(d)).toEqual(encodeGt06Ack(protocol, serial));
    }
    expect(await gpsCount()).toBe(before + 1);
    // The alarm's own news (its status) is stored.
    const alarms = await sql<{ n: number }>`SELECT count(*)::int AS n FROM sensor_logs
      WHERE car_data_id = ${imei} AND readings->>'alarm' = 'vibration'`.execute(t.db);
    expect(alarms.rows[0]!.n).toBe(1);
    d.close();
  });
});

describe('GT06 commands', () => {
  it('sends Relay,1# with the command id as server flag; the 0x15 reply closes it (state 3) by its text', async () => {
    const d = await loggedIn();
    d.send(encodeGt06Heartbeat({ acc: false, relayCut: false, voltageLevel: 5, gsmSignal: 4 }, ++serial));
    await nextFrame(d);
    const cmd = await reserveEngineOk(t.app, token, imei, 1);
    const sent = readGt06Command(await nextFrame(d));
    expect(sent).toEqual({ serverFlag: cmd.command_id, text: 'Relay,1#' });
    d.send(encodeGt06Reply(cmd.command_id, 'Cut off the fuel supply: Success!', ++serial));
    await until(async () => (await getSlot(t.app, token, imei)).state === 3);
    expect((await getSlot(t.app, token, imei)).command).toMatchObject({
      status: 'succeeded',
      result: { success: true },
    });
    expect((await latest(t.db, imei))?.engine_line).toBe('disconnected');
    // A clone answers with a zero length byte: the reply still closes the command, failed by its text.
    const permit = await reserveEngineOk(t.app, token, imei, 0);
    expect(readGt06Command(await nextFrame(d))).toEqual({ serverFlag: permit.command_id, text: 'Relay,0#' });
    d.send(encodeGt06Reply(null, 'Restore fuel supply: Fail!', ++serial));
    await until(async () => (await getSlot(t.app, token, imei)).state === 3);
    expect((await getSlot(t.app, token, imei)).command).toMatchObject({
      command_id: permit.command_id,
      status: 'failed',
      result: { success: false, detail: 'Restore fuel supply: Fail!' },
    });
    d.close();
  });
  it('holds a prohibit while the vehicle moves', async () => {
    const d = await loggedIn();
    // Ignition on (the heartbeat is timed on arrival) and a fix with speed.
    d.send(encodeGt06Heartbeat({ acc: true, relayCut: false, voltageLevel: 5, gsmSignal: 4 }, ++serial));
    await nextFrame(d);
    d.send(encodeGt06Location({ time: new Date(), lat: 35.6586, lng: 139.7454, speed: 40, acc: true }, ++serial));
    await nextFrame(d);
    await reserveEngineOk(t.app, token, imei, 1);
    await sleep(400);
    expect(d.received.length).toBe(0);
    expect((await getSlot(t.app, token, imei)).state).toBe(1);
    d.send(
      encodeGt06Location(
        { time: new Date(Date.now() + 1000), lat: 35.6586, lng: 139.7454, speed: 0, acc: true },
        ++serial,
      ),
    );
    await nextFrame(d);
    expect(readGt06Command(await nextFrame(d))?.text).toBe('Relay,1#');
    d.close();
  });
});
