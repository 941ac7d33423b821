import { engineMessages, LIVE_PATH, liveTicket, OSMAND_PATH, osmandMessages, type LiveState } from '@fleet/contract';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reserveCommand } from '../src/commands/terminal-commands.repository.js';
import { startOsmandListener, type OsmandListener } from '../src/gateway/osmand-listener.js';
import { createFleet } from '../src/simulator/fleet.js';
import { httpTransport } from '../src/simulator/transport.js';
import { reserveEngineCall } from './engine-support.js';
import { createSignedInApp, type SignedInApp } from './helper.js';
import { TERMINAL_PASSWORD, count, latest, terminalA, terminalB } from './telemetry-support.js';

/** OsmAnd / Traccar Client (docs/device-protocol.md §10): GET|POST /device/osmand/<password> and OSMAND_PORT. */
let t: SignedInApp;
let listener: OsmandListener;
let base: string;

beforeAll(async () => {
  t = await createSignedInApp(['superAdmin', 'managerA']);
  // Terminal A speaks OsmAnd; B stays on our JSON protocol.
  await t.db.updateTable('devices').set({ protocol: 'osmand' }).where('car_data_id', '=', terminalA.imei).execute();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address();
  base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  listener = await startOsmandListener(t.app, { port: 0, host: '127.0.0.1', timeoutMs: 5_000 });
});
afterAll(async () => {
  await listener?.close();
  await t?.close();
});

const BASE_S = Math.floor(Date.parse('2026-01-15T03:00:00Z') / 1000);
let minute = 0;
/** A fix a minute after the previous one. */
const nextTime = () => BASE_S + 60 * ++minute;

const osmandGet = (query: Record<string, string | number>, password = TERMINAL_PASSWORD) =>
  t.app.inject({
    method: 'GET',
    url: `${OSMAND_PATH}/${encodeURIComponent(password)}?${new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)]))}`,
  });

const totals = async (imei: string) =>
  Object.fromEntries(
    await Promise.all(
      (['gps_logs', 'battery_logs', 'engine_logs', 'sensor_logs', 'device_batches'] as const).map(async (tb) => [
        tb,
        await count(t.db, tb, imei),
      ]),
    ),
  );

describe('GET /device/osmand/<password> (query form)', () => {
  it('stores a fix in the logs and the latest state (speed in km/h), and a retried fix once', async () => {
    const timestamp = nextTime();
    const query = {
      id: terminalA.imei,
      lat: 35.6812,
      lon: 139.7671,
      timestamp,
      speed: 20,
      bearing: 90,
      batt: 77,
      ignition: 'true',
      altitude: 30,
    };
    const before = await totals(terminalA.imei);
    const first = await osmandGet(query);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({ accepted: 4, duplicate: false });
    // A terminal's answer: an API's security headers (app.ts), never cached.
    expect(first.headers['cache-control']).toBe('no-store');
    expect(first.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
    const again = await osmandGet(query);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({ duplicate: true });
    const after = await totals(terminalA.imei);
    expect(after).toEqual({
      gps_logs: before.gps_logs + 1,
      battery_logs: before.battery_logs + 1,
      engine_logs: before.engine_logs + 1,
      sensor_logs: before.sensor_logs + 1,
      device_batches: before.device_batches + 1,
    });
    const state = await latest(t.db, terminalA.imei);
    expect(state).toMatchObject({
      lat: 35.6812,
      lng: 139.7671,
      speed: 37.04,
      heading: 90,
      battery_percentage: 77,
      engine_running: 'on',
    });
    expect(new Date(state!.recorded_at!).getTime()).toBe(timestamp * 1000);
  });

  it('answers 400 without an id and 401 for a wrong password, an unknown IMEI or a JSON terminal; nothing stored', async () => {
    const before = [await totals(terminalA.imei), await totals(terminalB.imei)];
    const fix = { lat: 35, lon: 139, timestamp: nextTime() };
    const noId = await osmandGet(fix);
    expect(noId.statusCode).toBe(400);
    expect(noId.json()).toMatchObject({ code: 'BAD_REQUEST', message: osmandMessages.noId });
    expect((await osmandGet({ ...fix, id: terminalA.imei }, 'wrong-password')).statusCode).toBe(401);
    expect((await osmandGet({ ...fix, id: '359999999999999' })).statusCode).toBe(401);
    // Terminal B's password is right, but it is registered for our JSON protocol.
    expect((await osmandGet({ ...fix, id: terminalB.imei })).statusCode).toBe(401);
    const bad = await osmandGet({ ...fix, id: terminalA.imei, lat: 'north' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors).toEqual({ lat: osmandMessages.badNumber });
    const outOfRange = await osmandGet({ ...fix, id: terminalA.imei, lat: 135 });
    expect(outOfRange.statusCode).toBe(400);
    expect(outOfRange.json().message).toBe(osmandMessages.rejected);
    expect([await totals(terminalA.imei), await totals(terminalB.imei)]).toEqual(before);
  });

  it('accepts a report of cell towers or Wi-Fi alone (200): stored as a report, no new position', async () => {
    const before = await totals(terminalA.imei);
    const position = await latest(t.db, terminalA.imei);
    const res = await osmandGet({
      id: terminalA.imei,
      timestamp: nextTime(),
      cell: '440,10,4660,22136',
      wifi: 'a0:b1:c2:d3:e4:f5,-61',
    });
    expect(res.statusCode, res.body).toBe(200);
    const after = await totals(terminalA.imei);
    expect(after).toMatchObject({ gps_logs: before.gps_logs, sensor_logs: before.sensor_logs + 1 });
    expect(await latest(t.db, terminalA.imei)).toMatchObject({
      lat: position?.lat ?? null,
      lng: position?.lng ?? null,
    });
  });

  it('takes a POSTed form the same way', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: `${OSMAND_PATH}/${TERMINAL_PASSWORD}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `id=${terminalA.imei}&lat=35.7&lon=139.8&timestamp=${nextTime() * 1000}`,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect((await latest(t.db, terminalA.imei))?.lat).toBe(35.7);
  });
});

describe('POST /device/osmand/<password> (Traccar Client 9 JSON)', () => {
  it('stores the fix with the speed from m/s and the phone battery level', async () => {
    const time = new Date(nextTime() * 1000).toISOString();
    const res = await t.app.inject({
      method: 'POST',
      url: `${OSMAND_PATH}/${TERMINAL_PASSWORD}`,
      payload: {
        device_id: terminalA.imei,
        location: {
          timestamp: time,
          coords: { latitude: 35.71, longitude: 139.81, speed: 5, heading: 45, accuracy: 6, altitude: 20 },
          battery: { level: 0.55, is_charging: false },
          is_moving: true,
        },
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(await latest(t.db, terminalA.imei)).toMatchObject({
      lat: 35.71,
      speed: 18,
      heading: 45,
      battery_percentage: 55,
    });
  });
});

describe('OSMAND_PORT: http://host:<port>/<password>', () => {
  it('stores over real HTTP, GET and POST, and refuses like the main port', async () => {
    const url = `http://127.0.0.1:${listener.port}`;
    const timestamp = nextTime();
    const get = await fetch(
      `${url}/${TERMINAL_PASSWORD}?id=${terminalA.imei}&lat=35.72&lon=139.82&timestamp=${timestamp}`,
    );
    expect(get.status).toBe(200);
    expect(await get.json()).toMatchObject({ duplicate: false });
    const retry = await fetch(
      `${url}/${TERMINAL_PASSWORD}?id=${terminalA.imei}&lat=35.72&lon=139.82&timestamp=${timestamp}`,
    );
    expect(await retry.json()).toMatchObject({ duplicate: true });
    const body = {
      device_id: terminalA.imei,
      location: {
        timestamp: new Date(nextTime() * 1000).toISOString(),
        coords: { latitude: 35.73, longitude: 139.83 },
      },
    };
    const posted = await fetch(`${url}/${TERMINAL_PASSWORD}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(posted.status).toBe(200);
    expect((await latest(t.db, terminalA.imei))?.lat).toBe(35.73);
    expect((await fetch(`${url}/wrong?id=${terminalA.imei}&lat=1&lon=1`)).status).toBe(401);
    expect((await fetch(`${url}/${TERMINAL_PASSWORD}?lat=1&lon=1`)).status).toBe(400);
    expect((await fetch(`${url}/a/b`)).status).toBe(404);
    expect((await fetch(`${url}/${TERMINAL_PASSWORD}`, { method: 'DELETE' })).status).toBe(405);
  });
});

describe('live push and commands', () => {
  it('pushes the new position to the live stream', async () => {
    const { ticket } = (await t.call(liveTicket, {}, 'superAdmin')).body;
    const controller = new AbortController();
    const res = await fetch(`${base}${LIVE_PATH}?ticket=${encodeURIComponent(ticket)}`, { signal: controller.signal });
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = '';
    const until = async (marker: string) => {
      while (!text.includes(marker)) text += (await reader.read()).value ?? '';
    };
    try {
      await until('event: snapshot');
      await osmandGet({ id: terminalA.imei, lat: 35.74, lon: 139.84, timestamp: nextTime() });
      await until('35.74');
      const block = text.slice(text.indexOf('event: state'));
      const data = JSON.parse(/^data: (.*)$/m.exec(block)![1]!) as LiveState;
      expect(data).toMatchObject({ car_data_id: terminalA.imei, lat: 35.74 });
    } finally {
      controller.abort();
    }
  });

  it('refuses to reserve an engine command for an OsmAnd terminal (409) and never hands one out', async () => {
    const res = await reserveEngineCall(t.app, t.tokens.managerA, terminalA.imei, 0);
    expect(res.status, res.raw.body).toBe(409);
    expect(res.error).toMatchObject({ code: 'CONFLICT', message: engineMessages.noCommandChannel });
    // One made before the terminal became OsmAnd (or by the scheduler) stays waiting until it expires.
    const id = await reserveCommand(t.db, {
      car_data_id: terminalA.imei,
      cmd_type: 'set_engine_boot_permission',
      cmd_info: { cmd: 0 },
      created_by: null,
      expires_at: new Date(Date.now() + 60_000),
    });
    expect((await osmandGet({ id: terminalA.imei, lat: 35.75, lon: 139.85, timestamp: nextTime() })).statusCode).toBe(
      200,
    );
    const row = await t.db
      .selectFrom('reserved_commands')
      .select(['state', 'fetched_at'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ state: 1, fetched_at: null });
  });
});

describe("the simulator's OsmAnd terminal", () => {
  it('reports its drive over the real HTTP form: positions with km/h speeds, battery and ignition', async () => {
    const before = await count(t.db, 'gps_logs', terminalA.imei);
    const fleet = createFleet({
      terminals: [
        { car_device_id: terminalA.id, password: TERMINAL_PASSWORD, car_data_id: terminalA.imei, protocol: 'osmand' },
      ],
      transport: httpTransport(base),
      seed: 7,
      start: Date.parse('2026-01-16T00:00:00Z'),
      vehicle: { parkSeconds: [5, 10] },
    });
    await fleet.run(240);
    const [terminal] = fleet.terminals;
    expect(terminal!.refused).toBeFalsy();
    const gps = await t.db
      .selectFrom('gps_logs')
      .select(['speed'])
      .where('car_data_id', '=', terminalA.imei)
      .where('recorded_at', '>=', new Date('2026-01-16T00:00:00Z'))
      .execute();
    expect(gps.length).toBeGreaterThan(10);
    expect(await count(t.db, 'gps_logs', terminalA.imei)).toBe(before + gps.length);
    expect(gps.some((g) => Number(g.speed) > 5)).toBe(true);
    expect(gps.every((g) => g.speed === null || Number(g.speed) < 200)).toBe(true);
  });
});

describe('GET|POST /device/osmand under generated input', () => {
  it('answers 200 or a 4xx with the error shape, never a 5xx, and stores nothing for a refusal', async () => {
    const names = fc.constantFrom(
      'id',
      'deviceid',
      'lat',
      'lon',
      'location',
      'timestamp',
      'speed',
      'bearing',
      'batt',
      'ignition',
      'x',
    );
    const value = fc.oneof(
      fc.string({ maxLength: 40 }),
      fc.double().map(String),
      fc.constant(terminalA.imei),
      fc.constant('1764039600'),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.dictionary(names, value),
        fc.oneof(fc.constant(TERMINAL_PASSWORD), fc.string({ minLength: 1, maxLength: 200 })),
        fc.option(fc.jsonValue(), { nil: undefined }),
        async (query, password, body) => {
          const before = await count(t.db, 'device_batches', terminalA.imei);
          const res = await t.app.inject({
            method: body === undefined ? 'GET' : 'POST',
            url: `${OSMAND_PATH}/${encodeURIComponent(password)}?${new URLSearchParams(query)}`,
            ...(body === undefined
              ? {}
              : { payload: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
          });
          expect(res.statusCode, res.body).toBeLessThan(500);
          if (res.statusCode !== 200) {
            expect(res.json()).toMatchObject({ code: expect.any(String), message: expect.any(String) });
            expect(await count(t.db, 'device_batches', terminalA.imei)).toBe(before);
          }
        },
      ),
      { numRuns: 150 },
    );
  });
});
