import {
  carDataSync,
  carGetBatteryLog,
  carGetConnectionLog,
  carGetEngineLog,
  carGetErrorLog,
  carGetGpsLog,
  carGetLatestState,
  carGetObd2Log,
  carGetSensorLog,
} from '@fleet/contract';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { sql, type RawBuilder } from 'kysely';
import { accounts, createSignedInApp, unchecked, type SignedInApp } from './helper.js';
import { at, reply, sendBatch, terminalA, terminalB } from './telemetry-support.js';

let t: SignedInApp;

beforeAll(async () => {
  t = await createSignedInApp(['staffA', 'superAdmin', 'adminB']);
  // Ten minutes of terminal A: every kind of record once a minute.
  const records = Array.from({ length: 10 }, (_, m) => [
    { type: 'gps', time: at(m), lat: 35.68 + m * 0.001, lng: 139.76, speed: 30 + m, heading: 0 },
    { type: 'engine', time: at(m), running: m % 2 ? 'on' : 'off' },
    { type: 'connection', time: at(m), state: m === 5 ? 'disconnected' : 'connected' },
    { type: 'battery', time: at(m), voltage: 12 + m / 10, percentage: 90 - m },
    { type: 'sensor', time: at(m), vibration: m / 10, readings: { temperature_c: 20 + m } },
    { type: 'obd2', time: at(m), pids: { rpm: 800 + m * 100 } },
    {
      type: 'error',
      time: at(m),
      error_type: 'obd2',
      status_code: m === 3 ? 1002 : 0,
      detail: m === 3 ? '応答なし' : '',
    },
  ]).flat();
  const res = await sendBatch(t.app, terminalA, { seq: 1, records });
  expect(reply(res).accepted).toBe(70);
  await sendBatch(t.app, terminalB, { seq: 1, records: [{ type: 'gps', time: at(0), lat: 35.4, lng: 139.6 }] });
});
afterAll(() => t?.close());

const call: SignedInApp['call'] = (...args) => t.call(...args);

const logCalls = [
  [carGetConnectionLog, 'state'],
  [carGetEngineLog, 'running'],
  [carGetErrorLog, 'status_code'],
  [carGetBatteryLog, 'voltage'],
  [carGetSensorLog, 'readings'],
  [carGetObd2Log, 'pids'],
] as const;

describe.each(logCalls.map(([logCall, field]) => [logCall.path, logCall, field] as const))(
  '%s',
  (_, logCall, field) => {
    it('answers the terminal log newest first', async () => {
      const res = await call(logCall, { car_data_id: terminalA.imei }, 'staffA');
      expect(res.status, res.raw.body).toBe(200);
      const { list, next_before_id } = res.body;
      expect(list).toHaveLength(10);
      expect(list[0]!.recorded_at).toBe(at(9));
      expect(list[9]!.recorded_at).toBe(at(0));
      expect(list[0]).toHaveProperty(field);
      expect(next_before_id).toBeNull();
    });

    it('filters by from/to and pages with limit and before_id', async () => {
      const first = (await call(logCall, { car_data_id: terminalA.imei, from: at(2), to: at(7), limit: 4 }, 'staffA'))
        .body;
      expect(first.list.map((r) => r.recorded_at)).toEqual([at(7), at(6), at(5), at(4)]);
      expect(first.next_before_id).toBe(first.list[3]!.id);
      const second = (
        await call(
          logCall,
          { car_data_id: terminalA.imei, from: at(2), to: at(7), limit: 4, before_id: first.next_before_id },
          'staffA',
        )
      ).body;
      expect(second.list.map((r) => r.recorded_at)).toEqual([at(3), at(2)]);
      expect(second.next_before_id).toBeNull();
      expect(second.next_before_at).toBeNull();
    });

    it("pages the same with the cursor row's time (next_before_at); a time the row does not have leaves nothing after it", async () => {
      const range = { car_data_id: terminalA.imei, from: at(0), to: at(9), limit: 3 };
      const seen: string[] = [];
      let cursor: { before_id?: number; before_at?: string } = {};
      for (;;) {
        const page = (await call(logCall, { ...range, ...cursor }, 'staffA')).body;
        seen.push(...page.list.map((r) => r.recorded_at));
        if (page.next_before_id === null) break;
        expect(page.next_before_at).toBe(page.list.at(-1)!.recorded_at);
        cursor = { before_id: page.next_before_id, before_at: page.next_before_at! };
      }
      expect(seen).toEqual(Array.from({ length: 10 }, (_, i) => at(9 - i)));

      const first = (await call(logCall, range, 'staffA')).body;
      const elsewhere = new Date(Date.parse(first.next_before_at!) - 86_400_000).toISOString();
      const wrong = await call(logCall, { ...range, before_id: first.next_before_id!, before_at: elsewhere }, 'staffA');
      expect(wrong.status).toBe(200);
      expect(wrong.body).toEqual({ list: [], next_before_id: null, next_before_at: null });
      const alone = await call(logCall, { ...range, before_at: first.next_before_at! }, 'staffA');
      expect(alone.status).toBe(400);
      expect(alone.error.errors).toEqual({ before_at: '入力内容が不正です' });
      // The first and last instants PostgreSQL reads are refused too: the lookup looks a millisecond either side.
      for (const before_at of ['9999-12-31T23:59:59.999Z', '0001-01-01T00:00:00.000Z', '+010000-01-01T00:00:00Z']) {
        const edge = await call(logCall, { ...range, before_id: first.next_before_id!, before_at }, 'staffA');
        expect({ before_at, status: edge.status }).toEqual({ before_at, status: 400 });
        expect(edge.error.errors).toEqual({ before_at: '入力内容が不正です' });
      }
    });

    it('answers 400 with Japanese messages for a bad request', async () => {
      const res = await call(logCall, { car_data_id: terminalA.imei, from: at(2) }, 'staffA');
      expect(res.status).toBe(400);
      expect(res.error).toMatchObject({
        code: 'BAD_REQUEST',
        errors: { to: '開始日時と終了日時の両方を入力してください' },
      });
      const missing = await call(logCall, unchecked({ limit: 0 }), 'staffA');
      expect(missing.status).toBe(400);
      expect(missing.error.errors).toMatchObject({ car_data_id: '必須項目です', limit: '入力内容が不正です' });
    });

    it('answers 401 without a token', async () => {
      const res = await call(logCall, { car_data_id: terminalA.imei });
      expect(res.status).toBe(401);
      expect(res.error.code).toBe('UNAUTHORIZED');
    });

    it("answers 404 for another company's terminal, and to the super admin shows it", async () => {
      const res = await call(logCall, { car_data_id: terminalA.imei }, 'adminB');
      expect(res.status).toBe(404);
      expect(res.raw.json()).toEqual({ code: 'NOT_FOUND', message: '対象の情報が見つかりません。' });
      expect((await call(logCall, { car_data_id: '000000000000000' }, 'superAdmin')).status).toBe(404);
      expect((await call(logCall, { car_data_id: terminalA.imei }, 'superAdmin')).status).toBe(200);
    });
  },
);

describe('log contents', () => {
  it('answers JSON objects of sensor readings and OBD2 pids as objects', async () => {
    const sensor = (await call(carGetSensorLog, { car_data_id: terminalA.imei, limit: 1 }, 'staffA')).body;
    expect(sensor.list[0]).toMatchObject({ vibration: 0.9, readings: { temperature_c: 29 } });
    const obd2 = (await call(carGetObd2Log, { car_data_id: terminalA.imei, limit: 1 }, 'staffA')).body;
    expect(obd2.list[0]!.pids).toEqual({ rpm: 1700 });
  });

  it('names who gave an engine command in the engine log', async () => {
    await t.db
      .insertInto('engine_logs')
      .values({
        car_data_id: terminalA.imei,
        recorded_at: at(20),
        running: null,
        engine_line: 'disconnected',
        command: 1,
        command_id: 1,
        account_id: accounts.managerA.account_id,
      })
      .execute();
    const { list } = (
      await call(carGetEngineLog, { car_data_id: terminalA.imei, from: '', to: '', limit: 1 }, 'staffA')
    ).body;
    expect(list[0]).toEqual({
      id: expect.any(Number),
      recorded_at: at(20),
      running: null,
      engine_line: 'disconnected',
      command: 1,
      command_id: 1,
      account_id: 'manager-a',
      account_name: accounts.managerA.name,
    });
  });

  it('reads the console date format as Japan time', async () => {
    // at(0) is 2026-01-15 03:00Z = 12:00 in Japan.
    const res = (
      await call(
        carGetErrorLog,
        { car_data_id: terminalA.imei, from: '2026/01/15 12:03', to: '2026/01/15 12:03' },
        'staffA',
      )
    ).body;
    expect(res.list).toEqual([
      expect.objectContaining({ recorded_at: at(3), status_code: 1002, error_type: 'obd2', detail: '応答なし' }),
    ]);
  });
});

describe('car_get_gps_log', () => {
  /** A terminal of company A on a vehicle of its own (its GPS rows are written straight to the log). */
  const addVehicle = async (imei: string, name: string) => {
    await t.db
      .insertInto('devices')
      .values({ car_device_id: `device-${name}`, car_data_id: imei, password_hash: 'x' })
      .execute();
    await t.db
      .insertInto('cars')
      .values({
        car_id: `car-${name}`,
        company_id: 'company-a',
        car_data_id: imei,
        car_device_id: `device-${name}`,
        user_id: null,
      })
      .execute();
  };
  /** A day of one-second points on a new vehicle (lat and lng as SQL of the second `i`), and its route. */
  const routeOfDay = async (
    imei: string,
    name: string,
    day: string,
    max_points: number,
    at: { lat: RawBuilder<unknown>; lng: RawBuilder<unknown> },
  ) => {
    await addVehicle(imei, name);
    await sql`INSERT INTO gps_logs (car_data_id, recorded_at, lat, lng, speed, heading)
      SELECT ${imei}, ${`${day}T00:00:00Z`}::timestamptz + make_interval(secs => i), ${at.lat}, ${at.lng}, 30, 0
      FROM generate_series(0, 86399) AS i`.execute(t.db);
    return call(
      carGetGpsLog,
      { car_data_id: imei, from: `${day}T00:00:00Z`, to: `${day}T23:59:59Z`, max_points },
      'staffA',
    );
  };

  it('answers the route oldest first with its size', async () => {
    const res = await call(carGetGpsLog, { car_data_id: terminalA.imei, from: '', to: '' }, 'staffA');
    expect(res.status).toBe(200);
    const body = res.body;
    expect(body).toMatchObject({ total: 10, simplified: false });
    // No address is known for the point yet (the lookups run afterwards, docs/geocoding.md).
    expect(body.list[0]).toEqual({ recorded_at: at(0), lat: 35.68, lng: 139.76, speed: 30, heading: 0, address: null });
    expect(body.list.at(-1)!.recorded_at).toBe(at(9));
  });

  it('validates, needs a token, and hides other companies', async () => {
    expect((await call(carGetGpsLog, { car_data_id: terminalA.imei, to: at(1) }, 'staffA')).status).toBe(400);
    expect(
      (await call(carGetGpsLog, { car_data_id: terminalA.imei, max_points: 1 }, 'staffA')).error.errors,
    ).toHaveProperty('max_points');
    expect((await call(carGetGpsLog, { car_data_id: terminalA.imei })).status).toBe(401);
    expect((await call(carGetGpsLog, { car_data_id: terminalB.imei }, 'staffA')).status).toBe(404);
  });

  it.runIf(!!inject('databaseUrl'))(
    'on PostgreSQL, reads a day of one-second points whole: a one-second detour survives the simplifying',
    async () => {
      // The embedded database thins the read by time before simplifying (its process also serves the
      // calls); a server with its own database reads a day whole, so a point off the line is never lost.
      const imei = '358409100000557';
      // Due east along a street, one point a second; every 10 minutes, one point 0.0005° (about 55 m) north.
      const res = await routeOfDay(imei, 'detours', '2026-01-11', 5000, {
        lat: sql`35.68 + CASE WHEN i % 600 = 299 THEN 0.0005 ELSE 0 END`,
        lng: sql`139.70 + i * 0.000001`,
      });
      expect(res.status).toBe(200);
      expect(res.body.total).toBe(86_400);
      expect(res.body.list.filter((p) => p.lat > 35.6801)).toHaveLength(144);
    },
  );

  it('brings a day of one-second points back small, keeping the shape', async () => {
    const imei = '358409100000555';
    // A loop around the Imperial Palace, one point a second for 24 hours.
    const res = await routeOfDay(imei, 'day', '2026-01-10', 1500, {
      lat: sql`35.685 + 0.01 * sin(i / 3600.0)`,
      lng: sql`139.753 + 0.012 * cos(i / 3600.0)`,
    });
    expect(res.status).toBe(200);
    const body = res.body;
    expect(body.total).toBe(86_400);
    expect(body.simplified).toBe(true);
    expect(body.list.length).toBeLessThanOrEqual(1500);
    expect(body.list[0]!.recorded_at).toBe('2026-01-10T00:00:00.000Z');
    expect(body.list.at(-1)!.recorded_at).toBe('2026-01-10T23:59:59.000Z');
    // The kept points still trace the circle: none strays from its radius.
    for (const p of body.list) {
      const r = Math.hypot((p.lat - 35.685) / 0.01, (p.lng - 139.753) / 0.012);
      expect(r).toBeCloseTo(1, 3);
    }
    expect(res.raw.body.length).toBeLessThan(200_000);
  });

  it('answers a route of more than 200,000 points, simplified, never 5xx', async () => {
    const imei = '358409100000556';
    await addVehicle(imei, 'long');
    // 250,000 points, one every 5 s (about 14.5 days), written straight to the table.
    await sql`INSERT INTO gps_logs (car_data_id, recorded_at, lat, lng, speed, heading)
      SELECT ${imei}, timestamptz '2026-02-01T00:00:00Z' + make_interval(secs => i * 5),
             35.685 + 0.01 * sin(i / 720.0), 139.753 + 0.012 * cos(i / 720.0), 30, 0
      FROM generate_series(0, 249999) AS i`.execute(t.db);
    for (const [body, who] of [
      [{ car_data_id: imei, max_points: 2000 }, 'staffA'],
      [{ car_data_id: imei, from: '2026-02-01T00:00:00Z', to: '2026-03-01T00:00:00Z' }, 'superAdmin'],
    ] as const) {
      const res = await call(carGetGpsLog, body, who);
      expect(res.status, res.raw.body).toBe(200);
      const answer = res.body;
      expect(answer.total).toBe(250_000);
      expect(answer.simplified).toBe(true);
      expect(answer.list.length).toBeLessThanOrEqual('max_points' in body ? body.max_points : 5000);
      expect(answer.list[0]!.recorded_at).toBe('2026-02-01T00:00:00.000Z');
      const times = answer.list.map((p) => p.recorded_at);
      expect([...times].sort()).toEqual(times);
    }
  }, 120_000);
});

describe('car_get_latest_state and car_data_sync', () => {
  it('answers the latest state of a visible terminal only', async () => {
    const res = await call(carGetLatestState, { car_data_id: terminalA.imei }, 'staffA');
    expect(res.body.state).toMatchObject({
      car_data_id: terminalA.imei,
      lat: 35.689,
      engine_running: 'on',
      connection: 'connected',
      device_state: 0,
    });
    expect((await call(carGetLatestState, { car_data_id: terminalA.imei }, 'adminB')).status).toBe(404);
  });

  it('rebuilds the latest state from the stored logs', async () => {
    // Logs written behind the gateway's back (an import): the state does not know them yet.
    await t.db
      .insertInto('gps_logs')
      .values({
        car_data_id: terminalA.imei,
        recorded_at: at(15),
        lat: 35.7,
        lng: 139.8,
        speed: 0,
        heading: 180,
        satellites: null,
        accuracy: null,
      })
      .execute();
    await t.db
      .insertInto('connection_logs')
      .values({ car_data_id: terminalA.imei, recorded_at: at(15), state: 'disconnected' })
      .execute();
    const res = await call(carDataSync, { car_id: 'car-a', car_data_id: terminalA.imei }, 'staffA');
    expect(res.status, res.raw.body).toBe(200);
    expect(res.body).toMatchObject({
      ok: true,
      state: {
        lat: 35.7,
        lng: 139.8,
        heading: 180,
        connection: 'disconnected',
        engine_line: 'disconnected',
        battery_percentage: 81,
      },
    });
    expect(res.body.state!.recorded_at).toBe(at(20));
  });

  it('refuses a car of another company and a car_data_id that is not the car terminal', async () => {
    expect((await call(carDataSync, { car_id: 'car-a', car_data_id: terminalA.imei }, 'adminB')).status).toBe(404);
    expect((await call(carDataSync, { car_id: 'car-a', car_data_id: terminalB.imei }, 'staffA')).status).toBe(404);
    expect((await call(carDataSync, unchecked({ car_id: 'car-a' }), 'staffA')).status).toBe(400);
    expect((await call(carDataSync, { car_id: 'car-a', car_data_id: terminalA.imei })).status).toBe(401);
  });
});
