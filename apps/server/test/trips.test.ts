import {
  carTrips,
  defaultTripSettings,
  errorMessages,
  fleetSummary,
  tripMessages,
  tripSettings,
  tripSettingsUpdate,
  type CarTripsResponse,
} from '@fleet/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashDeviceSecret } from '../src/credentials/device-secret.js';
import type { Position } from '../src/trips/detect.js';
import { runTripDetection } from '../src/trips/detection.js';
import { generateDrive, type Leg } from '../src/trips/drive.fixture.js';
import { companyA, companyB, createSignedInApp, fleet, unchecked, type SignedInApp } from './helper.js';

/**
 * Trips and stops (docs/trips.md): positions go into the log as a terminal's batches would leave them, the
 * detection job runs, and the calls answer from what it stored.
 */
let t: SignedInApp;
beforeAll(async () => {
  t = await createSignedInApp();
});
afterAll(() => t?.close());

const detect = () => runTripDetection(t.db, { embedded: false });

/** A terminal on a new vehicle of the company, for one scenario. */
let n = 0;
async function newVehicle(company: string) {
  n++;
  const imei = `35840910009${String(n).padStart(4, '0')}`;
  const user = company === companyA ? fleet.A.user_id : fleet.B.user_id;
  await t.db
    .insertInto('devices')
    .values({ car_device_id: `trip-dev-${n}`, car_data_id: imei, password_hash: hashDeviceSecret('terminal-secret') })
    .execute();
  await t.db
    .insertInto('cars')
    .values({
      car_id: `trip-car-${n}`,
      company_id: company,
      user_id: user,
      car_device_id: `trip-dev-${n}`,
      car_data_id: imei,
      car_number: `品川 500 あ ${n}`,
    })
    .execute();
  return { imei, car_id: `trip-car-${n}` };
}

async function store(imei: string, points: Position[]) {
  for (let i = 0; i < points.length; i += 5000)
    await t.db
      .insertInto('gps_logs')
      .values(
        points.slice(i, i + 5000).map((p) => ({
          car_data_id: imei,
          recorded_at: new Date(p.t),
          lat: p.lat,
          lng: p.lng,
          speed: p.speed,
          heading: null,
          satellites: null,
          accuracy: null,
        })),
      )
      .execute();
}

const day = (d: string, time = '00:00:00') => Date.parse(`${d}T${time}+09:00`);
const within = (got: number, want: number, share = 0.05) => Math.abs(got - want) / want < share;

/** Three stops and two trips. */
const dayLegs: Leg[] = [
  { park: 1800, jitterM: 8 },
  {
    drive: [
      [400, 0],
      [400, 900],
      [1500, 900],
      [1500, 2100],
      [2300, 2400],
    ],
    kmh: 40,
  },
  { park: 900, jitterM: 12 },
  {
    drive: [
      [2300, 3000],
      [1800, 3400],
    ],
    kmh: 30,
  },
  { park: 3600, jitterM: 5 },
];

describe('car_trips and fleet_summary', () => {
  let vehicle: { imei: string; car_id: string };
  const drive = generateDrive(dayLegs, { start: day('2026-11-23', '08:00:00'), sampleS: 5, seed: 11 });

  beforeAll(async () => {
    vehicle = await newVehicle(companyA);
    // Stored in two deliveries: the job follows the second from where the first left it.
    const half = Math.floor(drive.points.length / 2);
    await store(vehicle.imei, drive.points.slice(0, half));
    await detect();
    await store(vehicle.imei, drive.points.slice(half));
    await detect();
  });

  it('answers the day’s trips and stops, oldest first, distances along the path', async () => {
    const res = await t.call(carTrips, { car_data_id: vehicle.imei, from: '2026-11-23', to: '2026-11-23' }, 'staffA');
    expect(res.status, res.raw.body).toBe(200);
    const { trips, stops } = res.body;
    expect(trips).toHaveLength(2);
    expect(stops).toHaveLength(3);
    trips.forEach((trip, i) => {
      const want = drive.truth.trips[i]!;
      expect(within(trip.distance_m, want.distance)).toBe(true);
      expect(Math.abs(Date.parse(trip.start_at) - want.start)).toBeLessThanOrEqual(5000);
      expect(Math.abs(Date.parse(trip.end_at) - want.end)).toBeLessThanOrEqual(5000);
      expect(trip.duration_s).toBe((Date.parse(trip.end_at) - Date.parse(trip.start_at)) / 1000);
      expect(trip.start_address).toBeNull();
      expect(trip.avg_speed_kmh).toBeGreaterThan(0);
    });
    expect(trips[0]!.max_speed_kmh).toBe(40);
    expect(stops[2]!.end_at).toBeNull();
    expect(stops[1]!.duration_s).toBeGreaterThan(850);
    expect(Date.parse(stops[1]!.start_at)).toBeLessThan(Date.parse(stops[1]!.end_at!));
  });

  it('sums the fleet: one row per vehicle of the company, the totals', async () => {
    const res = await t.call(fleetSummary, { from: '2026-11-23', to: '2026-11-23' }, 'adminA');
    expect(res.status, res.raw.body).toBe(200);
    const row = res.body.rows.find((r) => r.car_id === vehicle.car_id)!;
    const distance = drive.truth.trips.reduce((s, x) => s + x.distance, 0);
    expect(row).toMatchObject({ car_data_id: vehicle.imei, trips: 2, stops: 3, max_speed_kmh: 40 });
    expect(within(row.distance_m, distance)).toBe(true);
    expect(row.driving_s).toBeGreaterThan(0);
    expect(res.body.rows.map((r) => r.car_id)).toContain(fleet.A.car_id);
    expect(res.body.rows.map((r) => r.car_id)).not.toContain(fleet.B.car_id);
    expect(res.body.total.trips).toBe(res.body.rows.reduce((s, r) => s + r.trips, 0));
    // A range of instants, not whole days, is summed from the pieces themselves: the same answer.
    const instants = await t.call(
      fleetSummary,
      { from: '2026-11-23T00:00:00+09:00', to: '2026-11-23T23:59:59+09:00' },
      'adminA',
    );
    expect(instants.body).toEqual(res.body);
    // Another day: the vehicle is listed, having driven nothing.
    const other = await t.call(fleetSummary, { from: '2026-11-20', to: '2026-11-20' }, 'adminA');
    expect(other.body.rows.find((r) => r.car_id === vehicle.car_id)).toMatchObject({ trips: 0, distance_m: 0 });
  });

  it('the super admin reads any company’s summary, or every company’s', async () => {
    const one = await t.call(
      fleetSummary,
      { from: '2026-11-23', to: '2026-11-23', company_id: companyB },
      'superAdmin',
    );
    expect(one.body.rows.map((r) => r.car_id)).toEqual([fleet.B.car_id]);
    const all = await t.call(fleetSummary, { from: '2026-11-23', to: '2026-11-23' }, 'superAdmin');
    expect(all.body.rows.map((r) => r.car_id)).toEqual(expect.arrayContaining([fleet.A.car_id, fleet.B.car_id]));
  });

  it('refuses bad input with 400 and Japanese messages', async () => {
    const bad = async (body: unknown) => {
      const res = await t.call(carTrips, unchecked(body), 'adminA');
      expect(res.status, res.raw.body).toBe(400);
      return res.error.errors;
    };
    const car_data_id = vehicle.imei;
    expect(await bad({ car_data_id, from: '2026-11-24', to: '2026-11-23' })).toEqual({ from: tripMessages.rangeOrder });
    expect(await bad({ car_data_id, from: '2025-11-23', to: '2026-11-23' })).toEqual({
      to: tripMessages.tripsRangeTooLong,
    });
    expect(await bad({ car_data_id, from: '', to: '2026-11-23' })).toEqual({ from: tripMessages.rangeRequired });
    expect(await bad({ car_data_id, from: 'きのう', to: '2026-11-23' })).toEqual({ from: expect.any(String) });
    expect(await bad({ car_data_id: '999999999999999', from: '2026-11-23', to: '2026-11-23' })).toEqual({
      car_data_id: tripMessages.unknownTerminal,
    });
    const summary = await t.call(fleetSummary, unchecked({ from: '2026-01-01', to: '2026-12-31' }), 'adminA');
    expect(summary.status).toBe(400);
    expect(summary.error.errors).toEqual({ to: tripMessages.summaryRangeTooLong });
  });

  it('another company’s terminal answers as an unknown one; its company is not found', async () => {
    const theirs = await t.call(
      carTrips,
      { car_data_id: vehicle.imei, from: '2026-11-23', to: '2026-11-23' },
      'adminB',
    );
    const unknown = await t.call(
      carTrips,
      { car_data_id: '999999999999999', from: '2026-11-23', to: '2026-11-23' },
      'adminB',
    );
    expect(theirs.status).toBe(400);
    expect(theirs.raw.body).toBe(unknown.raw.body);
    const summary = await t.call(
      fleetSummary,
      { from: '2026-11-23', to: '2026-11-23', company_id: companyA },
      'adminB',
    );
    expect(summary.status).toBe(404);
    const own = await t.call(fleetSummary, { from: '2026-11-23', to: '2026-11-23' }, 'adminB');
    expect(own.body.rows.map((r) => r.car_id)).toEqual([fleet.B.car_id]);
  });

  it('signed out: 401', async () => {
    const res = await t.call(carTrips, { car_data_id: vehicle.imei, from: '2026-11-23', to: '2026-11-23' });
    expect(res.status).toBe(401);
  });
});

describe('a trip across midnight in Japan', () => {
  it('each day shows its part; a range over both shows one trip', async () => {
    const v = await newVehicle(companyA);
    const drive = generateDrive(
      [
        { park: 900 },
        {
          drive: [
            [0, 8000],
            [6000, 8000],
          ],
          kmh: 45,
        },
        { park: 900 },
      ],
      { start: day('2026-11-24', '23:35:00'), sampleS: 1 },
    );
    await store(v.imei, drive.points);
    await detect();
    const read = async (from: string, to: string) =>
      (await t.call(carTrips, { car_data_id: v.imei, from, to }, 'adminA')).body;
    const first = await read('2026-11-24', '2026-11-24');
    const second = await read('2026-11-25', '2026-11-25');
    expect(first.trips).toHaveLength(1);
    expect(second.trips).toHaveLength(1);
    expect(first.trips[0]!.end_at).toBe(new Date(day('2026-11-25')).toISOString());
    expect(second.trips[0]!.start_at).toBe(new Date(day('2026-11-25')).toISOString());
    // 10 minutes at 45 km/h before midnight.
    expect(within(first.trips[0]!.distance_m, 7_500, 0.02)).toBe(true);
    const both = await read('2026-11-24', '2026-11-25');
    expect(both.trips).toHaveLength(1);
    expect(within(both.trips[0]!.distance_m, drive.truth.trips[0]!.distance)).toBe(true);
    expect(both.trips[0]!.distance_m).toBeCloseTo(first.trips[0]!.distance_m + second.trips[0]!.distance_m, 0);
    const summary = async (from: string, to: string) =>
      (await t.call(fleetSummary, { from, to }, 'adminA')).body.rows.find((r) => r.car_id === v.car_id)!;
    expect((await summary('2026-11-24', '2026-11-25')).trips).toBe(1);
    expect((await summary('2026-11-25', '2026-11-25')).trips).toBe(1);
    expect((await summary('2026-11-24', '2026-11-24')).distance_m).toBeCloseTo(first.trips[0]!.distance_m, 0);
  });
});

describe('late positions', () => {
  it('re-compute the span they fall into', async () => {
    const v = await newVehicle(companyA);
    const drive = generateDrive(dayLegs, { start: day('2026-11-26', '09:00:00'), sampleS: 5, seed: 5 });
    // The positions around the middle stop come late (an outage there, delivered afterwards).
    const [arrive, leave] = [drive.truth.stops[1]!.start, drive.truth.stops[1]!.end];
    const outage = (p: Position) => p.t > arrive - 120_000 && p.t < leave + 120_000;
    await store(
      v.imei,
      drive.points.filter((p) => !outage(p)),
    );
    const held = drive.points.filter(outage);
    await detect();
    const read = async () =>
      (await t.call(carTrips, { car_data_id: v.imei, from: '2026-11-26', to: '2026-11-26' }, 'adminA')).body;
    const before = await read();
    expect(before.trips).toHaveLength(1);
    expect(before.stops).toHaveLength(2);
    await store(v.imei, held);
    const run = await detect();
    expect(run.recomputed).toBeGreaterThanOrEqual(1);
    const after = await read();
    expect(after.stops).toHaveLength(3);
    expect(after.trips).toHaveLength(2);
    after.trips.forEach((trip, i) => expect(within(trip.distance_m, drive.truth.trips[i]!.distance)).toBe(true));
    expect(Math.abs(Date.parse(after.stops[1]!.end_at!) - leave)).toBeLessThanOrEqual(5000);
    // Nothing twice: the same again after another run.
    await detect();
    expect(await read()).toEqual(after);
  });
});

describe('a terminal moved to another company mid-day', () => {
  it('each company sees only its own span', async () => {
    const v = await newVehicle(companyA);
    // A drive from 08:00; the terminal goes to company B's vehicle at 10:00 (while driving), back to A at 12:00.
    const legs: Leg[] = [
      { park: 3600 },
      { drive: [[20_000, 0]], kmh: 30 },
      { park: 3600 },
      { drive: [[20_000, 20_000]], kmh: 30 },
      { park: 7200 },
      { drive: [[0, 20_000]], kmh: 30 },
      { park: 3600 },
    ];
    const drive = generateDrive(legs, { start: day('2026-11-27', '08:00:00'), sampleS: 5 });
    const toB = day('2026-11-27', '09:30:00');
    const backToA = day('2026-11-27', '12:00:00');
    // The vehicle change as the console makes it (the trigger records the periods), then dated to the day.
    await t.db
      .insertInto('cars')
      .values({ car_id: 'trip-car-b', company_id: companyB, user_id: fleet.B.user_id })
      .execute();
    await t.db.updateTable('cars').set({ is_delete: true }).where('car_id', '=', v.car_id).execute();
    await t.db
      .updateTable('cars')
      .set({ car_data_id: v.imei, car_device_id: `trip-dev-${n}` })
      .where('car_id', '=', 'trip-car-b')
      .execute();
    await t.db
      .updateTable('cars')
      .set({ car_data_id: null, car_device_id: null })
      .where('car_id', '=', 'trip-car-b')
      .execute();
    await t.db.updateTable('cars').set({ is_delete: false }).where('car_id', '=', v.car_id).execute();
    const periods = await t.db
      .selectFrom('terminal_periods')
      .select(['id', 'car_id'])
      .where('car_data_id', '=', v.imei)
      .orderBy('id')
      .execute();
    expect(periods.map((p) => p.car_id)).toEqual([v.car_id, 'trip-car-b', v.car_id]);
    const [a1, b, a2] = periods.map((p) => Number(p.id)) as [number, number, number];
    await sql`UPDATE terminal_periods SET ended_at = ${new Date(toB)} WHERE id = ${a1}`.execute(t.db);
    await sql`UPDATE terminal_periods SET started_at = ${new Date(toB)}, ended_at = ${new Date(backToA)} WHERE id = ${b}`.execute(
      t.db,
    );
    await sql`UPDATE terminal_periods SET started_at = ${new Date(backToA)} WHERE id = ${a2}`.execute(t.db);

    await store(v.imei, drive.points);
    await detect();
    const range = { car_data_id: v.imei, from: '2026-11-27', to: '2026-11-27' };
    const all = (await t.call(carTrips, range, 'superAdmin')).body;
    const ofA = (await t.call(carTrips, range, 'adminA')).body;
    const inside = (x: CarTripsResponse['trips'][number], from: number, to: number) =>
      Date.parse(x.start_at) >= from && Date.parse(x.end_at) <= to;
    // The super admin sees the whole day: three drives, the first cut where the terminal changed vehicles.
    expect(all.trips).toHaveLength(4);
    const fullDistance = drive.truth.trips.reduce((s, x) => s + x.distance, 0);
    expect(
      within(
        all.trips.reduce((s, x) => s + x.distance_m, 0),
        fullDistance,
      ),
    ).toBe(true);
    // Company A: before 09:30 and from 12:00; nothing of B's time.
    expect(ofA.trips.every((x) => inside(x, 0, toB) || inside(x, backToA, Infinity))).toBe(true);
    expect(ofA.trips).toHaveLength(2);
    expect(ofA.stops.every((s) => Date.parse(s.start_at) < toB || Date.parse(s.start_at) >= backToA)).toBe(true);
    expect(
      ofA.stops.every((s) => s.end_at === null || Date.parse(s.end_at) <= toB || Date.parse(s.start_at) >= backToA),
    ).toBe(true);
    // Company B no longer has the terminal: it is unknown to B now.
    expect((await t.call(carTrips, range, 'adminB')).status).toBe(400);
    // The summary gives each vehicle its own span: B's vehicle the middle of the day.
    const rowOf = async (who: 'superAdmin' | 'adminA', car: string, company?: string) =>
      (await t.call(fleetSummary, { from: '2026-11-27', to: '2026-11-27', company_id: company }, who)).body.rows.find(
        (r) => r.car_id === car,
      );
    const aRow = (await rowOf('adminA', v.car_id))!;
    const bRow = (await rowOf('superAdmin', 'trip-car-b', companyB))!;
    expect(bRow.trips).toBe(2);
    expect(aRow.trips).toBe(2);
    expect(within(aRow.distance_m + bRow.distance_m, fullDistance)).toBe(true);
    expect(await rowOf('adminA', 'trip-car-b')).toBeUndefined();
    // Summed from the pieces (a range of instants) the vehicles' spans are the same.
    const byPieces = await t.call(
      fleetSummary,
      { from: '2026-11-27T00:00:00+09:00', to: '2026-11-27T23:59:59+09:00', company_id: companyB },
      'superAdmin',
    );
    expect(byPieces.body.rows.find((r) => r.car_id === 'trip-car-b')).toEqual(bRow);
  });
});

describe('trip_settings', () => {
  const custom = { stop_min_s: 600, stop_radius_m: 80, stop_speed_kmh: 3, trip_min_m: 1000 };

  it('a company admin reads the default and changes the company’s rule; it is audited', async () => {
    expect((await t.call(tripSettings, {}, 'adminA')).body.settings).toEqual(defaultTripSettings());
    const saved = await t.call(tripSettingsUpdate, { settings: custom }, 'adminA');
    expect(saved.status, saved.raw.body).toBe(200);
    expect((await t.call(tripSettings, {}, 'adminA')).body.settings).toEqual(custom);
    expect((await t.call(tripSettings, { company_id: companyA }, 'superAdmin')).body.settings).toEqual(custom);
    expect((await t.call(tripSettings, { company_id: companyB }, 'superAdmin')).body.settings).toEqual(
      defaultTripSettings(),
    );
    const audit = await t.db
      .selectFrom('audit_log')
      .select(['account_id', 'target_id'])
      .where('action', '=', 'company.trip_settings')
      .execute();
    expect(audit).toEqual([{ account_id: 'admin-a', target_id: companyA }]);
  });

  it('the rule applies to what is detected next', async () => {
    const v = await newVehicle(companyA);
    // A 7-minute stop: a stop by the default rule, none by the company's 10 minutes.
    const { points } = generateDrive(
      [{ park: 900 }, { drive: [[3000, 0]], kmh: 40 }, { park: 420 }, { drive: [[6000, 0]], kmh: 40 }, { park: 900 }],
      { start: day('2026-11-28', '09:00:00'), sampleS: 5 },
    );
    await store(v.imei, points);
    await detect();
    const res = await t.call(carTrips, { car_data_id: v.imei, from: '2026-11-28', to: '2026-11-28' }, 'adminA');
    expect(res.body.stops).toHaveLength(2);
    expect(res.body.trips).toHaveLength(1);
  });

  it('validation, permissions and other companies', async () => {
    const bad = await t.call(tripSettingsUpdate, unchecked({ settings: { ...custom, stop_min_s: 5 } }), 'adminA');
    expect(bad.status).toBe(400);
    expect(bad.error.errors?.['settings.stop_min_s']).toMatch(/60〜7200秒/);
    const noCompany = await t.call(tripSettings, {}, 'superAdmin');
    expect(noCompany.status).toBe(400);
    expect(noCompany.error.errors).toEqual({ company_id: tripMessages.companyRequired });
    for (const who of ['managerA', 'staffA'] as const) {
      const res = await t.call(tripSettingsUpdate, { settings: custom }, who);
      expect(res.status).toBe(403);
      expect(res.error.message).toBe(errorMessages.forbidden);
    }
    expect((await t.call(tripSettings, { company_id: companyA }, 'adminB')).status).toBe(404);
    expect((await t.call(tripSettingsUpdate, { company_id: companyA, settings: custom }, 'adminB')).status).toBe(404);
    expect((await t.call(tripSettings, { company_id: 'no-such-company' }, 'superAdmin')).status).toBe(404);
    // Nothing half-written: company B's rule is still the default.
    expect((await t.call(tripSettings, {}, 'adminB')).body.settings).toEqual(defaultTripSettings());
  });
});
