import { carDeleteReserveEngineCmd } from '@fleet/contract';
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import { openDatabase, type Database } from '../src/db/database.js';
import { createRequestScheduler } from '../src/engine/request-scheduler.js';
import type { LinkGateway } from '../src/gateway/tcp/link-gateway.js';
import type { LinkListener } from '../src/gateway/tcp/link-listener.js';
import { commandTextOf, encodeAvlFrame, encodeLogin } from '../src/gateway/tcp/teltonika-device.js';
import { teltonikaProtocol } from '../src/gateway/tcp/teltonika-link.js';
import { urlForDatabase } from './databases.js';
import { createSteppedUpApp, getSlot, requestEngineOk, reserveEngineOk } from './engine-support.js';
import { fleet, type SignedInApp } from './helper.js';
import { DeviceSocket, fixes, linkGateway, listen, setProtocol, sleep, until } from './link-support.js';

/**
 * Commands reach a connected TCP terminal when they are made (issue #14), not at the gateway's
 * next poll: the poll here is an hour, so whatever arrives within PROMPT_MS (generous, for a loaded
 * machine) came by the signal.
 * On PostgreSQL the signal is a NOTIFY, so the same tests cover it, plus a second instance.
 */
const HOUR = 3_600_000;
const PROMPT_MS = 5000;
const onPostgres = !!inject('databaseUrl');

let t: SignedInApp;
let gateway: LinkGateway;
let listener: LinkListener;
let token = '';
const imei = fleet.A.car_data_id;

beforeAll(async () => {
  t = await createSteppedUpApp(['staffA']);
  await setProtocol(t.db, fleet.A.car_device_id, 'teltonika');
  token = t.tokens.staffA;
  ({ gateway } = linkGateway(t.db, HOUR));
  listener = await listen(gateway, teltonikaProtocol);
  await gateway.listening();
});
afterAll(async () => {
  await gateway?.stop();
  await listener?.close();
  await t?.close();
});
/** Every device socket a test opened: closed after it, whatever it asserted. */
const sockets: DeviceSocket[] = [];
afterEach(async () => {
  for (const d of sockets.splice(0)) d.close();
});
beforeEach(async () => {
  await until(() => gateway.connected === 0);
  await t.db.deleteFrom('reservation_requests').execute();
  await t.db.deleteFrom('reserved_command_events').execute();
  await t.db.deleteFrom('reserved_commands').execute();
});

const fix = fixes({ io: { 239: 0 } });

async function loggedIn(to: { listener: LinkListener; gateway: LinkGateway } = { listener, gateway }) {
  const d = await DeviceSocket.open(to.listener.port);
  sockets.push(d);
  d.send(encodeLogin(imei));
  expect(await d.take(1)).toEqual(Buffer.from([1]));
  // Frames are handled one after the other: once this one is acknowledged, the login's own hand-out is over.
  d.send(encodeAvlFrame([fix()]));
  expect((await d.take(4)).readUInt32BE(0)).toBe(1);
  expect(to.gateway.connected).toBe(1);
  expect(d.received.length).toBe(0);
  return d;
}

/** The next Codec 12 command the device receives, within `timeoutMs`. */
async function nextCommand(d: DeviceSocket, timeoutMs = PROMPT_MS): Promise<string | null> {
  const head = await d.take(8, timeoutMs);
  const rest = await d.take(head.readUInt32BE(4) + 4, timeoutMs);
  return commandTextOf(Buffer.concat([head, rest]));
}

describe('commands reach a connected terminal at once', () => {
  it('a command reserved through the API is written to the open connection without waiting for the poll', async () => {
    const d = await loggedIn();
    const started = Date.now();
    const cmd = await reserveEngineOk(t.app, token, imei, 0);
    expect(await nextCommand(d)).toBe('setdigout 0');
    expect(Date.now() - started).toBeLessThan(PROMPT_MS);
    const slot = await getSlot(t.app, token, imei);
    expect(slot.command).toMatchObject({ command_id: cmd.command_id, status: 'resultWait' });
    d.close();
  });

  it('a command the request scheduler fires is written at once too', async () => {
    const d = await loggedIn();
    const executeAt = new Date(Date.now() + 60_000);
    const request_id = await requestEngineOk(t.app, token, fleet.A.car_id, 0, executeAt);
    const scheduler = createRequestScheduler({ db: t.db, clock: () => new Date(executeAt.getTime() + 1000) });
    expect((await scheduler.tick()).fired).toBe(1);
    expect(await nextCommand(d)).toBe('setdigout 0');
    expect((await getSlot(t.app, token, imei)).command).toMatchObject({ request_id, status: 'resultWait' });
    d.close();
  });

  it('a prohibit held while the vehicle moves goes out after the first frame that shows it stopped', async () => {
    const d = await loggedIn();
    d.send(encodeAvlFrame([fix({ speed: 45, io: { 239: 1 } })]));
    expect((await d.take(4)).readUInt32BE(0)).toBe(1);
    await reserveEngineOk(t.app, token, imei, 1);
    await sleep(300);
    expect(d.received.length).toBe(0);
    expect((await getSlot(t.app, token, imei)).command?.events.map((e) => e.event)).toEqual(['reserved', 'held']);
    // Still moving: still held.
    d.send(encodeAvlFrame([fix({ speed: 30, io: { 239: 1 } })]));
    expect((await d.take(4)).readUInt32BE(0)).toBe(1);
    await sleep(300);
    expect(d.received.length).toBe(0);
    d.send(encodeAvlFrame([fix({ speed: 0, io: { 239: 1 } })]));
    expect((await d.take(4)).readUInt32BE(0)).toBe(1);
    expect(await nextCommand(d)).toBe('setdigout 1');
    d.close();
  });

  it('a command made while the terminal is away waits for its next login; one deleted meanwhile never goes out', async () => {
    // Signalled while no socket is open for it: nothing happens until a login.
    await reserveEngineOk(t.app, token, imei, 0);
    const res = await t.call(carDeleteReserveEngineCmd, { car_data_id: imei, cmd_idx: 0 }, 'staffA');
    expect(res.status, res.raw.body).toBe(200);
    const d = await loggedIn();
    await sleep(300);
    expect(d.received.length).toBe(0);
    d.close();
    await until(() => gateway.connected === 0);
    const cmd = await reserveEngineOk(t.app, token, imei, 0);
    const again = await DeviceSocket.open(listener.port);
    sockets.push(again);
    again.send(encodeLogin(imei));
    expect(await again.take(1)).toEqual(Buffer.from([1]));
    expect(await nextCommand(again)).toBe('setdigout 0');
    expect((await getSlot(t.app, token, imei)).command).toMatchObject({
      command_id: cmd.command_id,
      status: 'resultWait',
    });
  });
});

describe.runIf(onPostgres)('across server instances (PostgreSQL NOTIFY)', () => {
  let second: Database;
  let other: { gateway: LinkGateway; listener: LinkListener };
  beforeAll(async () => {
    const { rows } = await sql<{ name: string }>`SELECT current_database() AS name`.execute(t.db);
    second = await openDatabase({ url: urlForDatabase(inject('databaseUrl'), rows[0]!.name), poolSize: 2 });
    const g = linkGateway(second.db, HOUR).gateway;
    other = { gateway: g, listener: await listen(g, teltonikaProtocol) };
    await other.gateway.listening();
  });
  afterAll(async () => {
    await other?.gateway.stop();
    await other?.listener.close();
    await second?.close();
  });

  it('a command made through the first instance reaches the socket connected to the second', async () => {
    await until(() => other.gateway.connected === 0);
    const d = await loggedIn(other);
    expect(gateway.connected).toBe(0);
    const cmd = await reserveEngineOk(t.app, token, imei, 0);
    expect(await nextCommand(d)).toBe('setdigout 0');
    expect((await getSlot(t.app, token, imei)).command).toMatchObject({
      command_id: cmd.command_id,
      status: 'resultWait',
    });
    d.close();
    await until(() => other.gateway.connected === 0);
  });

  it('after its LISTEN connection was lost, a gateway listens again and hands out what was made meanwhile', async () => {
    const d = await loggedIn();
    const killed = await sql<{ pid: number }>`
      SELECT pid FROM pg_stat_activity
      WHERE datname = current_database() AND query ILIKE 'LISTEN%' AND pid <> pg_backend_pid()`.execute(t.db);
    expect(killed.rows.length).toBeGreaterThan(0);
    await sql`SELECT pg_terminate_backend(pid) FROM pg_stat_activity
      WHERE datname = current_database() AND query ILIKE 'LISTEN%' AND pid <> pg_backend_pid()`.execute(t.db);
    await reserveEngineOk(t.app, token, imei, 0);
    // Reconnected after a short pause, then every connected terminal is looked at once.
    expect(await nextCommand(d, 10_000)).toBe('setdigout 0');
    await gateway.listening();
    d.close();
  });
});
