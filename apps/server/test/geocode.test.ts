import {
  LOG_EXPORT_PATH,
  REPORT_EXPORT_PATH,
  carGetGpsLog,
  carGetLatestState,
  carMapList,
  carPlaces,
  carTrips,
  placeMessages,
  placeSearch,
  tripMessages,
} from '@fleet/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { fillAddresses, discoverAddresses } from '../src/geocode/fill.js';
import { geocodeProviders, gsiReverseGeocoder } from '../src/geocode/provider.js';
import { loadConfig } from '../src/config.js';
import { createSignedInApp, fleet, unchecked, type SignedInApp } from './helper.js';
import { startGsiStub, type GsiStub } from './gsi-stub.js';
import { DAY, seedReportDay } from './report-support.js';
import { sendBatch, terminalA } from './telemetry-support.js';

/**
 * Addresses, place search and frequent places (docs/geocoding.md) against a local stub of GSI's two services:
 * the job fills the cache outside any request, every read takes what the cache has, a failing, hanging or
 * garbled provider leaves addresses null and pauses the whole deployment, the rate limit holds across
 * instances, and the cache outlives a restart.
 */
let stub: GsiStub;
let t: SignedInApp;
const MARUNOUCHI = '東京都千代田区丸の内一丁目';

beforeAll(async () => {
  stub = await startGsiStub();
  t = await createSignedInApp(['superAdmin', 'adminA', 'staffA', 'adminB'], {
    env: {
      REVERSE_GEOCODER_URL: stub.reverseUrl,
      ADDRESS_SEARCH_URL: stub.searchUrl,
      // Long enough for a loop held by the embedded database, short enough for the hanging cases.
      GEOCODER_TIMEOUT_MS: '1500',
      GEOCODER_RATE: '50',
    },
  });
  await seedReportDay(t);
  const time = new Date().toISOString();
  const records = [{ type: 'gps', time, lat: 35.6813, lng: 139.7661, speed: 0, heading: 0 }];
  expect((await sendBatch(t.app, terminalA, { seq: 1, records })).statusCode).toBe(200);
});
afterAll(async () => {
  await t?.close();
  await stub?.close();
});

const reverse = () => geocodeProviders(t.config).reverse!;
/** One run of the job as an instance runs it, with short back-offs for the tests. */
const fill = (rate = 50) => fillAddresses(t.db, { reverse: reverse(), rate, backoffBaseMs: 100, retryMs: 0 });
const reverseRequests = () => stub.requests.filter((r) => r.service === 'reverse').length;
const limiter = () => t.db.selectFrom('geocode_limiter').selectAll().executeTakeFirstOrThrow();
/** Ends any back-off left by a previous test. */
const unpause = () =>
  t.db
    .updateTable('geocode_limiter')
    .set({ paused_until: new Date(0), failures: 0 })
    .execute();
const queue = (lat: number, lng: number) =>
  sql`INSERT INTO geocode_cells (cell_lat, cell_lng) VALUES (floor(${lat}::float8 * 10000)::int, floor(${lng}::float8 * 10000)::int) ON CONFLICT DO NOTHING`.execute(
    t.db,
  );
const cellState = (lat: number, lng: number) =>
  sql<{ state: string; address: string | null; attempts: number }>`
    SELECT state, address, attempts FROM geocode_cells
     WHERE cell_lat = floor(${lat}::float8 * 10000)::int AND cell_lng = floor(${lng}::float8 * 10000)::int`
    .execute(t.db)
    .then((r) => r.rows[0]);

beforeEach(async () => {
  stub.mode = 'ok';
  await unpause();
});

describe('addresses wherever a position is shown', () => {
  it('are null until the job looked them up, then the cache answers every read', async () => {
    const before = await t.call(carGetLatestState, { car_data_id: fleet.A.car_data_id }, 'staffA');
    expect(before.body.address).toBeNull();
    // A day read before the lookups: stored addresses only; its other points wait in the queue.
    const early = (await t.call(carTrips, { car_data_id: fleet.A.car_data_id, from: DAY, to: DAY }, 'staffA')).body;
    expect(early.trips.map((x) => [x.start_address, x.end_address])).toEqual([
      ['東京都千代田区丸の内1丁目', null],
      [null, null],
    ]);

    await discoverAddresses(t.db);
    while ((await fill()) > 0);
    expect(reverseRequests()).toBeGreaterThan(0);
    // Only a cell's centre was sent, never the vehicle's own position.
    expect(stub.requests.some((r) => r.query.get('lat') === '35.681300')).toBe(false);

    expect((await t.call(carGetLatestState, { car_data_id: fleet.A.car_data_id }, 'staffA')).body.address).toBe(
      MARUNOUCHI,
    );
    const map = await t.call(carMapList, {}, 'adminA');
    expect(map.body.list.find((c) => c.car_id === fleet.A.car_id)?.address).toBe(MARUNOUCHI);

    const trips = (await t.call(carTrips, { car_data_id: fleet.A.car_data_id, from: DAY, to: DAY }, 'staffA')).body;
    expect(trips.trips[0]).toMatchObject({ start_address: '東京都千代田区丸の内1丁目', end_address: MARUNOUCHI });
    expect(trips.trips[1]).toMatchObject({ start_address: MARUNOUCHI, end_address: MARUNOUCHI });
    // A stored address stays; the others come from the cache.
    expect(trips.stops.map((s) => s.address)).toEqual(['東京都台東区上野7丁目', MARUNOUCHI]);

    const route = await t.call(carGetGpsLog, { car_data_id: fleet.A.car_data_id }, 'staffA');
    expect(route.body.list.map((p) => p.address)).toEqual([MARUNOUCHI]);
  });

  it('the GPS CSV export has a 住所 column', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: LOG_EXPORT_PATH,
      query: { kind: 'gps', car_data_id: fleet.A.car_data_id },
      headers: { authorization: `Bearer ${t.tokens.staffA}` },
    });
    const [header, row] = res.body.split('\r\n');
    expect(header).toBe('\uFEFF日時,緯度,経度,速度 (km/h),方位 (°),衛星数,精度 (m),住所');
    expect(row!.endsWith(`,${MARUNOUCHI}`)).toBe(true);
  });

  it('the 運行日報 export names the places', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: REPORT_EXPORT_PATH,
      payload: { kind: 'daily', format: 'csv', car_data_id: fleet.A.car_data_id, date: DAY },
      headers: { authorization: `Bearer ${t.tokens.staffA}` },
    });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain(MARUNOUCHI);
  });

  it('an address at sea is none, and is not asked again', async () => {
    await queue(30, 145);
    await fill();
    expect(await cellState(30, 145)).toMatchObject({ state: 'done', address: null });
    const asked = reverseRequests();
    await fill();
    expect(reverseRequests()).toBe(asked);
  });
});

describe('a failing provider', () => {
  it.each([
    ['answers 500', 'fail'],
    ['never answers (timeout)', 'hang'],
    ['answers garbage', 'garbage'],
  ] as const)('that %s leaves the address null and backs off for every instance', async (_what, mode) => {
    // A cell of its own per case (cells of different cases must not meet: one looked up by an earlier case is done).
    const lat = { fail: 35.691, hang: 35.695, garbage: 35.699 }[mode];
    await queue(lat, 139.7);
    stub.mode = mode;
    expect(await fill()).toBe(0);
    expect(await cellState(lat, 139.7)).toMatchObject({ state: 'pending', address: null, attempts: 1 });
    const l = await limiter();
    expect(l.failures).toBe(1);
    expect(new Date(l.paused_until).getTime()).toBeGreaterThan(Date.now() - 1000);
    // While paused, no instance asks.
    const asked = reverseRequests();
    await t.db
      .updateTable('geocode_limiter')
      .set({ paused_until: new Date(Date.now() + 60_000) })
      .execute();
    stub.mode = 'ok';
    expect(await fill()).toBe(0);
    expect(reverseRequests()).toBe(asked);
    // Once the back-off is over, the cell is looked up and the failures are forgotten.
    await unpause();
    while ((await fill()) > 0);
    expect(await cellState(lat, 139.7)).toMatchObject({ state: 'done', address: MARUNOUCHI });
  });

  it('a slow answer within the timeout is taken', async () => {
    await queue(35.7012, 139.7012);
    stub.mode = 'slow';
    stub.slowMs = 150;
    expect(await fill()).toBeGreaterThan(0);
    expect(await cellState(35.7012, 139.7012)).toMatchObject({ state: 'done', address: MARUNOUCHI });
  });

  it('gives a cell up after its attempts', async () => {
    await queue(35.7111, 139.7111);
    stub.mode = 'fail';
    for (let i = 0; i < 5; i++) {
      await unpause();
      await fill();
    }
    expect(await cellState(35.7111, 139.7111)).toMatchObject({ state: 'failed', address: null, attempts: 5 });
  });
});

describe('the rate limit', () => {
  it('holds for the deployment: two instances together keep the slots apart', async () => {
    for (let i = 0; i < 8; i++) await queue(34.7 + i / 1000, 135.5);
    const from = stub.requests.length;
    // Two instances' jobs running at once over the same database, at 10 requests a second in all.
    // A patient provider: on the embedded database a query holds the event loop the stub answers on.
    const patient = gsiReverseGeocoder(stub.reverseUrl, 5_000);
    const runs = await Promise.all([
      fillAddresses(t.db, { reverse: patient, rate: 10, budgetMs: 5_000 }),
      fillAddresses(t.db, { reverse: patient, rate: 10, budgetMs: 5_000 }),
    ]);
    expect(runs[0] + runs[1]).toBe(8);
    const times = stub.requests.slice(from).map((r) => r.at);
    expect(times).toHaveLength(8);
    // Slots 100 ms apart: eight requests span at least 700 ms, less what the event loop may blur (a request
    // held up by a busy loop goes late, never early).
    expect(times.at(-1)! - times[0]!).toBeGreaterThan(600);
    expect(await cellState(34.7, 135.5)).toMatchObject({ address: '大阪府大阪市北区梅田一丁目' });
  });
});

describe('the cache', () => {
  it('is kept across a restart: known cells are never asked again', async () => {
    const asked = reverseRequests();
    const again = await buildApp({ db: t.db, config: t.config, logger: false });
    await again.ready();
    try {
      const res = await again.inject({
        method: 'POST',
        url: carTrips.path,
        payload: { car_data_id: fleet.A.car_data_id, from: DAY, to: DAY },
        headers: { authorization: `Bearer ${t.tokens.staffA}` },
      });
      expect(res.json().trips[1].start_address).toBe(MARUNOUCHI);
      await discoverAddresses(t.db);
      expect(await fill()).toBe(0);
      expect(reverseRequests()).toBe(asked);
    } finally {
      await again.close();
    }
  });
});

describe('place_search', () => {
  it('answers the places the address search found', async () => {
    const res = await t.call(placeSearch, { q: '丸の内' }, 'staffA');
    expect(res.body.places).toEqual([
      { name: '東京都千代田区丸の内一丁目', lat: 35.681236, lng: 139.766084 },
      { name: '東京都千代田区丸の内二丁目', lat: 35.679245, lng: 139.763328 },
    ]);
    expect(stub.requests.at(-1)).toMatchObject({ service: 'search' });
    expect(stub.requests.at(-1)!.query.get('q')).toBe('丸の内');
  });

  it('refuses an empty query in Japanese, and anonymous callers', async () => {
    const empty = await t.call(placeSearch, unchecked({ q: ' ' }), 'staffA');
    expect(empty.status).toBe(400);
    expect(empty.error.errors).toEqual({ q: placeMessages.queryRequired });
    expect((await t.call(placeSearch, { q: '丸の内' })).status).toBe(401);
  });

  it('says so when the search fails or times out', async () => {
    for (const mode of ['fail', 'hang'] as const) {
      stub.mode = mode;
      const res = await t.call(placeSearch, { q: '丸の内' }, 'staffA');
      expect(res.status).toBe(503);
      expect(res.error.message).toBe(placeMessages.searchFailed);
    }
  });

  it('is off with ADDRESS_SEARCH_URL=off, and so are lookups with REVERSE_GEOCODER_URL=off', async () => {
    const off = loadConfig({ ADDRESS_SEARCH_URL: 'off', REVERSE_GEOCODER_URL: 'off' });
    expect(geocodeProviders(off)).toEqual({ reverse: null, search: null });
    expect(() => loadConfig({ REVERSE_GEOCODER_URL: 'gsi' })).toThrow(/REVERSE_GEOCODER_URL: an http\(s\) URL, or off/);
  });
});

describe('car_places', () => {
  it('groups the stops into places with their address, most time first', async () => {
    const res = await t.call(carPlaces, { car_data_id: fleet.A.car_data_id, from: DAY, to: DAY }, 'staffA');
    expect(res.status).toBe(200);
    // 08:30-12:00 near 上野 (35.70, 139.80) and 12:20-18:00 about 1.4 km away: two places.
    expect(res.body.places).toEqual([
      { lat: 35.71, lng: 139.81, address: MARUNOUCHI, visits: 1, total_s: 5 * 3600 + 40 * 60, night_s: 0 },
      { lat: 35.7, lng: 139.8, address: MARUNOUCHI, visits: 1, total_s: 3.5 * 3600, night_s: 0 },
    ]);
  });

  it('refuses a reversed range, and another company terminal like an unknown one', async () => {
    const reversed = await t.call(
      carPlaces,
      { car_data_id: fleet.A.car_data_id, from: '2026-11-21', to: '2026-11-20' },
      'staffA',
    );
    expect(reversed.status).toBe(400);
    expect(reversed.error.errors).toEqual({ from: placeMessages.rangeOrder });
    const other = await t.call(carPlaces, { car_data_id: fleet.A.car_data_id, from: DAY, to: DAY }, 'adminB');
    expect(other.status).toBe(400);
    expect(other.error.errors).toEqual({ car_data_id: tripMessages.unknownTerminal });
  });
});
