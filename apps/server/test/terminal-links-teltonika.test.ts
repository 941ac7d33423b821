import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { HELD_WHILE_MOVING, takeLinkCommands } from '../src/commands/terminal-commands.repository.js';
import { KIND, type LinkGateway } from '../src/gateway/tcp/link-gateway.js';
import type { LinkListener } from '../src/gateway/tcp/link-listener.js';
import { commandTextOf, encodeAvlFrame, encodeLogin, encodeResponse } from '../src/gateway/tcp/teltonika-device.js';
import { teltonikaProtocol } from '../src/gateway/tcp/teltonika-link.js';
import {
  eventsOf,
  expireNow,
  getSlot,
  grantEngineControl,
  reserveEngine,
  reserveEngineOk,
  stepUp,
} from './engine-support.js';
import { accounts, createTestApp, fleet, login, seedFixtures, type TestApp } from './helper.js';
import { DeviceSocket, fixes, linkGateway, listen, setProtocol, sleep, until, type LogLine } from './link-support.js';
import { latest } from './telemetry-support.js';

/** Teltonika over a real socket: login, AVL frames acknowledged after the commit, Codec 12 commands and responses. */
let t: TestApp;
let gateway: LinkGateway;
let lines: LogLine[];
let listener: LinkListener;
let token = '';
const imei = fleet.A.car_data_id;

beforeAll(async () => {
  t = await createTestApp();
  await seedFixtures(t.db);
  await setProtocol(t.db, fleet.A.car_device_id, 'teltonika');
  await setProtocol(t.db, fleet.B.car_device_id, 'gt06');
  await grantEngineControl(t.db, accounts.staffA.account_id);
  token = await login(t.app, 'staffA');
  await stepUp(t.app, token);
  ({ gateway, lines } = linkGateway(t.db));
  listener = await listen(gateway, teltonikaProtocol, { frameTimeoutMs: 300 });
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

const fix = fixes({ angle: 90, io: { 239: 0, 240: 0, 66: 12600, 21: 4 } });

async function loggedIn(): Promise<DeviceSocket> {
  const d = await DeviceSocket.open(listener.port);
  d.send(encodeLogin(imei));
  expect(await d.take(1)).toEqual(Buffer.from([1]));
  await until(() => gateway.connected > 0);
  return d;
}

const gpsCount = async () =>
  Number(
    (await sql<{ n: number }>`SELECT count(*)::int AS n FROM gps_logs WHERE car_data_id = ${imei}`.execute(t.db))
      .rows[0]!.n,
  );

/** The next Codec 12 command the device receives. */
async function nextCommand(d: DeviceSocket): Promise<string | null> {
  const head = await d.take(8);
  const rest = await d.take(head.readUInt32BE(4) + 4);
  return commandTextOf(Buffer.concat([head, rest]));
}

describe('login', () => {
  it('refuses an unknown IMEI, a deleted terminal and a terminal of another protocol with 00 and closes', async () => {
    for (const who of ['999999999999999', fleet.B.car_data_id]) {
      const d = await DeviceSocket.open(listener.port);
      d.send(encodeLogin(who));
      expect(await d.take(1)).toEqual(Buffer.from([0]));
      expect(await d.waitClosed()).toBe(true);
    }
    expect(
      lines.some((l) => l.msg === 'terminal login refused' && (l.obj as { reason: string }).reason === 'protocol'),
    ).toBe(true);
    await t.db
      .updateTable('devices')
      .set({ is_delete: true })
      .where('car_device_id', '=', fleet.A.car_device_id)
      .execute();
    const d = await DeviceSocket.open(listener.port);
    d.send(encodeLogin(imei));
    expect(await d.take(1)).toEqual(Buffer.from([0]));
    await t.db
      .updateTable('devices')
      .set({ is_delete: false })
      .where('car_device_id', '=', fleet.A.car_device_id)
      .execute();
  });
  it('refuses a source outside the terminal’s networks (ipaddr) and accepts one inside', async () => {
    await setProtocol(t.db, fleet.A.car_device_id, 'teltonika', '10.1.2.3');
    let d = await DeviceSocket.open(listener.port);
    d.send(encodeLogin(imei));
    expect(await d.take(1)).toEqual(Buffer.from([0]));
    await setProtocol(t.db, fleet.A.car_device_id, 'teltonika', '127.0.0.1');
    d = await DeviceSocket.open(listener.port);
    d.send(encodeLogin(imei));
    expect(await d.take(1)).toEqual(Buffer.from([1]));
    d.close();
    // A list of a carrier's blocks and addresses, IPv4 and IPv6: in when one of them holds the source.
    for (const [ipaddr, answer] of [
      ['203.0.113.0/24, 198.51.100.7, 2001:db8::/32', 0],
      ['203.0.113.0/24, 127.0.0.0/30, 2001:db8::/32', 1],
      // A stored list that does not parse (written around the form) lets nothing in: it used to let anything in.
      ['nowhere', 0],
      ['127.0.0.0/8, 0x7f000001', 0],
    ] as const) {
      await setProtocol(t.db, fleet.A.car_device_id, 'teltonika', ipaddr);
      d = await DeviceSocket.open(listener.port);
      d.send(encodeLogin(imei));
      expect(await d.take(1), ipaddr).toEqual(Buffer.from([answer]));
      d.close();
    }
    await setProtocol(t.db, fleet.A.car_device_id, 'teltonika');
  });
});

describe('AVL data', () => {
  it('acknowledges the record count only after the records are committed, and stores a resent frame once', async () => {
    const d = await loggedIn();
    const before = await gpsCount();
    const frame = encodeAvlFrame([
      fix({ speed: 30, io: { 239: 1, 240: 1, 66: 14100, 179: 0, 21: 5 } }),
      fix({ speed: 0, io: { 239: 0, 66: 12500 } }),
    ]);
    d.send(frame);
    expect((await d.take(4)).readUInt32BE(0)).toBe(2);
    expect(await gpsCount()).toBe(before + 2); // committed when the ack left
    const state = await latest(t.db, imei);
    expect(state).toMatchObject({
      engine_running: 'off',
      engine_line: 'connected',
      battery_voltage: 12.5,
      speed: 0,
      connection: 'connected',
    });
    d.send(frame);
    expect((await d.take(4)).readUInt32BE(0)).toBe(2);
    expect(await gpsCount()).toBe(before + 2);
    d.close();
  });
  it('stores a frame of many AVL records as one batch, and a resent frame as a duplicate of it', async () => {
    const d = await loggedIn();
    const receipts = async () =>
      Number(
        // The frames' receipts (kind 8, KIND.avlFrame), not the connections'.
        (
          await sql<{ n: number }>`SELECT count(*)::int AS n FROM device_batches
            WHERE car_data_id = ${imei} AND seq % 16 = ${KIND.avlFrame}`.execute(t.db)
        ).rows[0]!.n,
      );
    const before = { gps: await gpsCount(), receipts: await receipts() };
    // 20 records, two of them at the same millisecond: each is stored.
    const records = Array.from({ length: 20 }, (_, i) => fix({ speed: i, io: { 239: 1, 66: 13000 + i } }));
    records[1] = { ...records[1]!, time: records[0]!.time };
    const frame = encodeAvlFrame(records);
    d.send(frame);
    expect((await d.take(4)).readUInt32BE(0)).toBe(20);
    expect(await gpsCount()).toBe(before.gps + 20);
    expect(await receipts()).toBe(before.receipts + 1);
    expect(await latest(t.db, imei)).toMatchObject({ speed: 19, battery_voltage: 13.019 });
    d.send(frame);
    expect((await d.take(4)).readUInt32BE(0)).toBe(20);
    expect(await gpsCount()).toBe(before.gps + 20);
    expect(await receipts()).toBe(before.receipts + 1);
    // Another frame holding one of those records again is a frame of its own: acknowledged whole, its new record stored.
    d.send(encodeAvlFrame([records[19]!, fix({ speed: 50 })]));
    expect((await d.take(4)).readUInt32BE(0)).toBe(2);
    expect(await gpsCount()).toBe(before.gps + 21);
    d.close();
  });
  it('stores a record once whatever frame carries it again: alone, beside another, as Codec 8 Extended, after a reconnection', async () => {
    const rows = async (table: string) =>
      Number(
        (
          await sql<{
            n: number;
          }>`SELECT count(*)::int AS n FROM ${sql.table(table)} WHERE car_data_id = ${imei}`.execute(t.db)
        ).rows[0]!.n,
      );
    const logs = async () => ({
      gps: await rows('gps_logs'),
      engine: await rows('engine_logs'),
      battery: await rows('battery_logs'),
      sensor: await rows('sensor_logs'),
    });
    const record = fix({ speed: 42, io: { 239: 1, 179: 0, 66: 13800, 21: 3 } });
    const other = fix({ speed: 43, io: { 239: 1, 66: 13700 } });
    let d = await loggedIn();
    const before = await logs();
    d.send(encodeAvlFrame([record]));
    expect((await d.take(4)).readUInt32BE(0)).toBe(1);
    const once = await logs();
    expect(once).toEqual({
      gps: before.gps + 1,
      engine: before.engine + 1,
      battery: before.battery + 1,
      sensor: before.sensor + 1,
    });
    // The terminal regroups what it thinks unacknowledged: each frame is acknowledged with its count.
    d.send(encodeAvlFrame([record, other]));
    expect((await d.take(4)).readUInt32BE(0)).toBe(2);
    d.close();
    d = await loggedIn();
    d.send(encodeAvlFrame([other, record], { extended: true }));
    expect((await d.take(4)).readUInt32BE(0)).toBe(2);
    d.send(encodeAvlFrame([record, record], { extended: true }));
    expect((await d.take(4)).readUInt32BE(0)).toBe(2);
    // The record once, the other record (no sensor readings) once.
    expect(await logs()).toEqual({
      gps: once.gps + 1,
      engine: once.engine + 1,
      battery: once.battery + 1,
      sensor: once.sensor,
    });
    expect(await latest(t.db, imei)).toMatchObject({ speed: 43, battery_voltage: 13.7 });
    d.close();
  });

  it('skips a frame with a wrong CRC unacknowledged, keeps the connection, and closes on garbage', async () => {
    const d = await loggedIn();
    const bad = encodeAvlFrame([fix()]);
    bad[bad.length - 1] = bad[bad.length - 1]! ^ 0xff;
    const before = await gpsCount();
    d.send(bad);
    d.send(encodeAvlFrame([fix()]));
    expect((await d.take(4)).readUInt32BE(0)).toBe(1);
    expect(await gpsCount()).toBe(before + 1);
    expect(lines.some((l) => l.msg.includes('wrong CRC'))).toBe(true);
    d.send(Buffer.from('GET / HTTP/1.1\r\n\r\n'));
    expect(await d.waitClosed()).toBe(true);
  });
  it('closes a connection whose frame never completes (slow sender) without storing any of it', async () => {
    const d = await loggedIn();
    const before = await gpsCount();
    d.send(encodeAvlFrame([fix()]).subarray(0, 30));
    expect(await d.waitClosed(3000)).toBe(true);
    expect(await gpsCount()).toBe(before);
  });
});

describe('commands', () => {
  it('sends a prohibit at once as setdigout 1; the type-06 response closes it as succeeded (state 3) and the line is 禁止中', async () => {
    const d = await loggedIn();
    d.send(encodeAvlFrame([fix({ speed: 0 })]));
    await d.take(4);
    const cmd = await reserveEngineOk(t.app, token, imei, 1);
    expect(await nextCommand(d)).toBe('setdigout 1');
    expect((await getSlot(t.app, token, imei)).state).toBe(2);
    d.send(encodeResponse('DOUT1:1 Timeout:INFINITY DOUT2:0 Timeout:INFINITY'));
    await until(async () => (await getSlot(t.app, token, imei)).state === 3);
    const slot = await getSlot(t.app, token, imei);
    expect(slot.command).toMatchObject({
      command_id: cmd.command_id,
      status: 'succeeded',
      result: { success: true, detail: 'DOUT1:1 Timeout:INFINITY DOUT2:0 Timeout:INFINITY' },
    });
    expect(eventsOf(slot.command)).toEqual(['1:reserved:staff-a', '2:fetched:-', '3:succeeded:-']);
    expect((await latest(t.db, imei))?.engine_line).toBe('disconnected');
    // A permit uses the terminal's own text when one is set.
    await sql`UPDATE devices SET cmd_restore_text = 'setigndigout 0' WHERE car_device_id = ${fleet.A.car_device_id}`.execute(
      t.db,
    );
    await sleep(10);
    d.close();
    const again = await loggedIn();
    await reserveEngineOk(t.app, token, imei, 0);
    expect(await nextCommand(again)).toBe('setigndigout 0');
    again.send(encodeResponse('ERROR'));
    await until(async () => (await getSlot(t.app, token, imei)).state === 3);
    expect((await getSlot(t.app, token, imei)).command).toMatchObject({
      status: 'failed',
      result: { success: false, detail: 'ERROR' },
    });
    await sql`UPDATE devices SET cmd_restore_text = '' WHERE car_device_id = ${fleet.A.car_device_id}`.execute(t.db);
    again.close();
  });
  it('holds a prohibit while the vehicle moves, says why in the timeline, and sends it once it stopped', async () => {
    const d = await loggedIn();
    d.send(encodeAvlFrame([fix({ speed: 45, io: { 239: 1 } })]));
    await d.take(4);
    const cmd = await reserveEngineOk(t.app, token, imei, 1);
    await sleep(400);
    expect(d.received.length).toBe(0);
    const held = await getSlot(t.app, token, imei);
    expect(held.state).toBe(1);
    expect(held.command?.events.find((e) => e.event === 'held')).toMatchObject({ state: 1, reason: HELD_WHILE_MOVING });
    expect(held.command?.events.filter((e) => e.event === 'held')).toHaveLength(1);
    d.send(encodeAvlFrame([fix({ speed: 0, io: { 239: 1 } })]));
    await d.take(4);
    expect(await nextCommand(d)).toBe('setdigout 1');
    expect((await getSlot(t.app, token, imei)).command?.command_id).toBe(cmd.command_id);
    d.close();
  });
  it('hand-outs at the same time (the poll and a signal) say a prohibit is held once', async () => {
    const d = await loggedIn();
    d.send(encodeAvlFrame([fix({ speed: 45, io: { 239: 1 } })]));
    await d.take(4);
    d.close();
    await until(() => gateway.connected === 0);
    const cmd = await reserveEngineOk(t.app, token, imei, 1);
    const heldEvents = () =>
      t.db
        .selectFrom('reserved_command_events')
        .select('id')
        .where('command_id', '=', cmd.command_id)
        .where('event', '=', 'held')
        .execute();
    // On PostgreSQL the statements run side by side, each in its own snapshot: neither saw the other's event.
    for (let round = 0; round < 5; round++) {
      await t.db.deleteFrom('reserved_command_events').where('event', '=', 'held').execute();
      const outcomes = await Promise.all([1, 2, 3, 4].map(() => takeLinkCommands(t.db, [imei])));
      expect(outcomes.map((o) => [...o.waitingWhileMoving])).toEqual([[imei], [imei], [imei], [imei]]);
      expect(await heldEvents()).toHaveLength(1);
    }
  });
  it('a command for a disconnected terminal waits for the next login; one that expired meanwhile is never sent', async () => {
    await until(() => gateway.connected === 0);
    const expired = await reserveEngineOk(t.app, token, imei, 0);
    await expireNow(t.db, expired.command_id);
    expect((await getSlot(t.app, token, imei)).command).toMatchObject({ status: 'expired' });
    let d = await loggedIn();
    await sleep(300);
    expect(d.received.length).toBe(0);
    d.close();
    await until(() => gateway.connected === 0);
    const waiting = await reserveEngine(t.app, token, imei, 0);
    expect(waiting.statusCode).toBe(200);
    d = await loggedIn();
    expect(await nextCommand(d)).toBe('setdigout 0');
    d.close();
  });
});
