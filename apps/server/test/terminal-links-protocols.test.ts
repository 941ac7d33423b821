import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { hashDeviceSecret } from '../src/credentials/device-secret.js';
import { gl200Protocol } from '../src/gateway/tcp/gl200-link.js';
import { gps103Protocol } from '../src/gateway/tcp/gps103-link.js';
import { h02Protocol } from '../src/gateway/tcp/h02-link.js';
import { JT808, readJt808Frame } from '../src/gateway/tcp/jt808-codec.js';
import { jt808Protocol } from '../src/gateway/tcp/jt808-link.js';
import type { LinkGateway } from '../src/gateway/tcp/link-gateway.js';
import type { LinkListener } from '../src/gateway/tcp/link-listener.js';
import {
  gl200Fri,
  gl200Heartbeat,
  gl200Ignition,
  gl200OutAck,
  gps103Login,
  gps103Position,
  h02Confirm,
  h02V1,
  jt808Authenticate,
  jt808Location,
  jt808Register,
  jt808TerminalReply,
  type DeviceFix,
} from '../src/gateway/tcp/text-devices.js';
import { getSlot, reserveEngineOk, stepUp } from './engine-support.js';
import { companyB, createTestApp, login, seedFixtures, type TestApp } from './helper.js';
import { DeviceSocket, linkGateway, listen, sleep, until } from './link-support.js';
import { latest } from './telemetry-support.js';

/**
 * JT/T 808, H02, GPS103 and Queclink over real sockets on the shared link: each
 * one's answers, a stored position, and the engine round trip (the command in the
 * protocol's own form, the device's answer completing it); the held prohibit and
 * the allow-list as for Teltonika and GT06.
 */
let t: TestApp;
let gateway: LinkGateway;
const listeners: Partial<Record<string, LinkListener>> = {};
let token = '';

/** A vehicle of company B for each protocol, its terminal id in the protocol's own form. */
const terminals = {
  jt808: { car_data_id: '013511221122', car_device_id: 'dev-jt808', car_id: 'car-jt808' },
  h02: { car_data_id: '4210209006', car_device_id: 'dev-h02', car_id: 'car-h02' },
  gps103: { car_data_id: '359586015829802', car_device_id: 'dev-gps103', car_id: 'car-gps103' },
  gl200: { car_data_id: '868487004353181', car_device_id: 'dev-gl200', car_id: 'car-gl200' },
} as const;

beforeAll(async () => {
  t = await createTestApp();
  await seedFixtures(t.db);
  await t.db
    .insertInto('car_users')
    .values({ user_id: 'user-protocols', company_id: companyB, first_name: '顧客', name: 'protocols' })
    .execute();
  for (const [protocol, x] of Object.entries(terminals)) {
    await t.db
      .insertInto('devices')
      .values({
        car_device_id: x.car_device_id,
        car_data_id: x.car_data_id,
        password_hash: hashDeviceSecret('terminal-secret'),
        protocol: protocol as keyof typeof terminals,
      })
      .execute();
    await t.db
      .insertInto('cars')
      .values({
        car_id: x.car_id,
        company_id: companyB,
        user_id: 'user-protocols',
        car_device_id: x.car_device_id,
        car_data_id: x.car_data_id,
      })
      .execute();
  }
  token = await login(t.app, 'adminB');
  await stepUp(t.app, token);
  ({ gateway } = linkGateway(t.db));
  listeners.jt808 = await listen(gateway, jt808Protocol);
  listeners.h02 = await listen(gateway, h02Protocol);
  listeners.gps103 = await listen(gateway, gps103Protocol);
  listeners.gl200 = await listen(gateway, gl200Protocol);
});
afterAll(async () => {
  await gateway?.stop();
  for (const l of Object.values(listeners)) await l?.close();
  await t?.close();
});
beforeEach(async () => {
  await t.db.deleteFrom('reserved_command_events').execute();
  await t.db.deleteFrom('reserved_commands').execute();
});

let clock = Math.floor(Date.now() / 1000) * 1000 - 3_600_000;
const fix = (over: Partial<DeviceFix> = {}): DeviceFix => ({
  time: new Date((clock += 1000)),
  lat: 35.6812,
  lng: 139.7671,
  speed: 0,
  acc: false,
  ...over,
});

/** Takes the bytes up to and including `end`. */
async function takeTo(d: DeviceSocket, end: number): Promise<Buffer> {
  await until(() => d.received.includes(end) || d.closed);
  const at = d.received.indexOf(end);
  if (at < 0) throw new Error(`closed before ${String.fromCharCode(end)}`);
  return d.take(at + 1);
}
/** One JT/T 808 frame from the server, decoded. */
async function jtFrame(d: DeviceSocket) {
  await until(() => d.received.indexOf(0x7e, 1) > 0 || d.closed);
  const read = readJt808Frame(d.received);
  if (!read?.frame) throw new Error('no JT/T 808 frame');
  await d.take(read.size);
  return read.frame;
}

const gpsCount = async (id: string) =>
  Number(
    (await sql<{ n: number }>`SELECT count(*)::int AS n FROM gps_logs WHERE car_data_id = ${id}`.execute(t.db)).rows[0]!
      .n,
  );

async function closesCommand(id: string, status: 'succeeded' | 'failed') {
  await until(async () => (await getSlot(t.app, token, id)).state === 3);
  expect((await getSlot(t.app, token, id)).command).toMatchObject({ status });
}

describe('JT/T 808', () => {
  const id = terminals.jt808.car_data_id;
  let serial = 0;
  async function loggedIn() {
    const d = await DeviceSocket.open(listeners.jt808!.port);
    const reg = ++serial;
    d.send(jt808Register(id, reg));
    const answer = await jtFrame(d);
    expect(answer).toMatchObject({ id: JT808.registerReply, terminalId: id });
    expect(answer.body.readUInt16BE(0)).toBe(reg);
    expect(answer.body[2]).toBe(0);
    const code = answer.body.subarray(3).toString('latin1');
    d.send(jt808Authenticate(id, code, ++serial));
    expect((await jtFrame(d)).id).toBe(JT808.serverReply);
    return d;
  }

  it('registers, authenticates, stores a location once (sent twice) and answers each with 0x8001', async () => {
    const d = await loggedIn();
    const before = await gpsCount(id);
    const location = jt808Location(id, fix({ acc: true }), ++serial);
    for (let i = 0; i < 2; i++) {
      d.send(location);
      const ack = await jtFrame(d);
      expect(ack.id).toBe(JT808.serverReply);
      expect(ack.body).toEqual(Buffer.from([0, serial, 0x02, 0x00, 0]));
    }
    expect(await gpsCount(id)).toBe(before + 1);
    expect(await latest(t.db, id)).toMatchObject({ lat: 35.6812, lng: 139.7671, engine_running: 'on' });
    d.close();
  });

  it('cuts the engine with 0x8105 f0; the terminal’s 0x0001 naming its serial completes the command', async () => {
    const d = await loggedIn();
    d.send(jt808Location(id, fix(), ++serial));
    await jtFrame(d);
    await reserveEngineOk(t.app, token, id, 1);
    const control = await jtFrame(d);
    expect(control.id).toBe(JT808.terminalControl);
    expect(control.body).toEqual(Buffer.from([0xf0]));
    d.send(jt808TerminalReply(id, ++serial, { serial: control.serial, id: control.id }, 0));
    await closesCommand(id, 'succeeded');
    // Restore, refused by the terminal (result 1): the command fails.
    await reserveEngineOk(t.app, token, id, 0);
    const restore = await jtFrame(d);
    expect(restore.body).toEqual(Buffer.from([0xf1]));
    d.send(jt808TerminalReply(id, ++serial, { serial: restore.serial, id: restore.id }, 1));
    await closesCommand(id, 'failed');
    d.close();
  });

  it('answers a registration from a network outside the allow-list with result 4 and closes', async () => {
    await sql`UPDATE devices SET ipaddr = '203.0.113.0/24' WHERE car_device_id = ${terminals.jt808.car_device_id}`.execute(
      t.db,
    );
    try {
      const d = await DeviceSocket.open(listeners.jt808!.port);
      d.send(jt808Register(id, ++serial));
      const answer = await jtFrame(d);
      expect(answer.id).toBe(JT808.registerReply);
      expect(answer.body[2]).toBe(4);
      expect(await d.waitClosed()).toBe(true);
    } finally {
      await sql`UPDATE devices SET ipaddr = '' WHERE car_device_id = ${terminals.jt808.car_device_id}`.execute(t.db);
    }
  });
});

describe('H02', () => {
  const id = terminals.h02.car_data_id;
  it('answers V1 with V4,V1; holds a prohibit while moving; S20 out, the V4 DONE completes it', async () => {
    const d = await DeviceSocket.open(listeners.h02!.port);
    d.send(h02V1(id, fix({ acc: true, speed: 40 })));
    expect((await takeTo(d, 0x23)).toString('latin1')).toMatch(new RegExp(`^\\*HQ,${id},V4,V1,\\d{14}#$`));
    expect(await latest(t.db, id)).toMatchObject({ engine_running: 'on', lat: 35.6812 });
    await reserveEngineOk(t.app, token, id, 1);
    await sleep(400);
    expect(d.received.length).toBe(0);
    expect((await getSlot(t.app, token, id)).state).toBe(1);
    d.send(h02V1(id, fix({ acc: true, speed: 0, time: new Date() })));
    await takeTo(d, 0x23);
    const command = (await takeTo(d, 0x23)).toString('latin1');
    expect(command).toMatch(new RegExp(`^\\*HQ,${id},S20,\\d{6},1,1#$`));
    d.send(h02Confirm(id, 'S20', true, fix({ relayCut: true })));
    await closesCommand(id, 'succeeded');
    d.close();
  });
});

describe('GPS103 / TK103', () => {
  const id = terminals.gps103.car_data_id;
  it('answers the login with LOAD, stores a position timed from the local date and UTC seconds, J then jt', async () => {
    const d = await DeviceSocket.open(listeners.gps103!.port);
    d.send(gps103Login(id));
    expect((await d.take(4)).toString('latin1')).toBe('LOAD');
    d.send(Buffer.from(`${id};`, 'latin1'));
    expect((await d.take(2)).toString('latin1')).toBe('ON');
    const at = fix();
    d.send(gps103Position(id, at));
    await until(async () => (await latest(t.db, id))?.lat === 35.6812);
    expect(new Date((await latest(t.db, id))!.position_at!).toISOString()).toBe(at.time.toISOString());
    await reserveEngineOk(t.app, token, id, 1);
    const command = `**,imei:${id},J`;
    expect((await d.take(command.length)).toString('latin1')).toBe(command);
    d.send(gps103Position(id, fix(), 'jt'));
    await closesCommand(id, 'succeeded');
    d.close();
  });
});

describe('Queclink @Track', () => {
  const id = terminals.gl200.car_data_id;
  it('answers GTHBD with the SACK, stores every fix of a GTFRI and GTIGN, GTOUT out and its ACK completes it', async () => {
    const d = await DeviceSocket.open(listeners.gl200!.port);
    d.send(gl200Heartbeat(id, 0x11f0));
    expect((await takeTo(d, 0x24)).toString('latin1')).toBe('+SACK:GTHBD,300400,11F0$');
    const before = await gpsCount(id);
    d.send(gl200Fri(id, [fix(), fix({ lat: 35.6813, speed: 12 })], 0x11f1));
    await until(async () => (await gpsCount(id)) === before + 2);
    d.send(gl200Ignition(id, true, fix(), 0x11f2));
    await until(async () => (await latest(t.db, id))?.engine_running === 'on');
    await reserveEngineOk(t.app, token, id, 1);
    expect((await takeTo(d, 0x24)).toString('latin1')).toBe('AT+GTOUT=,1,,,0,0,0,0,0,0,0,,,,,,,FFFF$');
    d.send(gl200OutAck(id, 0x11f3));
    await closesCommand(id, 'succeeded');
    d.close();
  });
});
