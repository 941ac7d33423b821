import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../src/db/database.js';
import { findRouteSlices } from '../src/telemetry/log.repository.js';
import { readRoute } from '../src/telemetry/route-read.js';
import { createTestApp, type TestApp } from './helper.js';

/**
 * A route above the read cap is thinned by the database (route-read.ts, log.repository.ts findRouteSlices):
 * its shape must survive, corners included, whichever way a terminal reports its heading.
 */
const IMEI = '358409100000777';
const START = Date.parse('2026-03-02T00:00:00Z');
const M_PER_DEG = 111_320;
const COS = Math.cos((35.68 * Math.PI) / 180);

/**
 * One point a second for `seconds`, 10 m/s east, stepping 30 m north or south every `period` seconds from its
 * second `stepAt` (two 90° corners three seconds apart: the points at `stepAt` - 1 and `stepAt` + 2), each
 * point's heading the way it came in.
 */
function steppedRoute(seconds: number, period = 50, stepAt = 20) {
  const points: { t: number; lat: number; lng: number; heading: number }[] = [];
  let x = 0;
  let y = 0;
  for (let s = 0; s < seconds; s++) {
    const inStep = s % period >= stepAt && s % period < stepAt + 3;
    const north = Math.floor(s / period) % 2 === 0;
    const heading = inStep ? (north ? 0 : 180) : 90;
    if (inStep) y += north ? 10 : -10;
    else x += 10;
    points.push({ t: START + s * 1000, lat: 35.68 + y / M_PER_DEG, lng: 139.76 + x / (M_PER_DEG * COS), heading });
  }
  return points;
}

/** The farthest any point of `raw` lies from the line through `kept`, in metres (both in time order). */
function farthest(raw: { t: number; lat: number; lng: number }[], kept: { t: number; lat: number; lng: number }[]) {
  const xy = (p: { lat: number; lng: number }) => [p.lng * COS * M_PER_DEG, p.lat * M_PER_DEG] as const;
  let j = 0;
  let worst = 0;
  for (const p of raw) {
    while (j < kept.length - 2 && kept[j + 1]!.t <= p.t) j++;
    const [ax, ay] = xy(kept[j]!);
    const [bx, by] = xy(kept[j + 1] ?? kept[j]!);
    const [px, py] = xy(p);
    const [dx, dy] = [bx - ax, by - ay];
    const len2 = dx * dx + dy * dy;
    const u = len2 ? Math.max(0, Math.min(1, ((px - ax) * dx + (py - ay) * dy) / len2)) : 0;
    worst = Math.max(worst, Math.hypot(px - (ax + u * dx), py - (ay + u * dy)));
  }
  return worst;
}

const insertRoute = (db: Db, imei: string, points: ReturnType<typeof steppedRoute>) =>
  sql`INSERT INTO gps_logs (car_data_id, recorded_at, lat, lng, speed, heading)
    SELECT ${imei}, to_timestamp(u.t / 1000.0), u.lat, u.lng, 36, u.heading
    FROM unnest(${points.map((p) => p.t)}::float8[], ${points.map((p) => p.lat)}::float8[],
      ${points.map((p) => p.lng)}::float8[], ${points.map((p) => p.heading)}::float8[]) AS u(t, lat, lng, heading)`.execute(
    db,
  );

describe('a route thinned by the read', () => {
  let t: TestApp;
  const raw = steppedRoute(6000);
  beforeAll(async () => {
    t = await createTestApp();
    await insertRoute(t.db, IMEI, raw);
  });
  afterAll(() => t?.close());

  const read = (embedded: boolean) =>
    readRoute(
      t.db,
      { car_data_id: IMEI, from: new Date(START).toISOString(), to: new Date(START + 6000_000).toISOString() },
      600,
      embedded,
    );

  it('keeps the corners of a step shorter than its time slices, and starts and ends where the route did', async () => {
    for (const embedded of [true, false]) {
      const { points, total } = await read(embedded);
      expect(total).toBe(6000);
      // The cap, and the first and last points beside it.
      expect(points.length).toBeLessThanOrEqual(602);
      const kept = points.map((p) => ({ t: new Date(p.recorded_at).getTime(), lat: p.lat, lng: p.lng }));
      expect(kept.map((p) => p.t)).toEqual([...kept.map((p) => p.t)].sort((a, b) => a - b));
      expect(kept[0]!.t).toBe(raw[0]!.t);
      expect(kept.at(-1)!.t).toBe(raw.at(-1)!.t);
      // The first point of each 10 s slice cut the corners of each step by up to 21 m.
      expect(farthest(raw, kept)).toBeLessThan(1);
    }
  });

  it('finds the corners from the positions, not the headings: without any it keeps them too', async () => {
    await sql`UPDATE gps_logs SET heading = NULL WHERE car_data_id = ${IMEI}`.execute(t.db);
    const kept = (await read(true)).points.map((p) => ({
      t: new Date(p.recorded_at).getTime(),
      lat: p.lat,
      lng: p.lng,
    }));
    expect(farthest(raw, kept)).toBeLessThan(1);
  });

  it("tells a turn at a read's first or last point by the neighbour the next or previous read has", async () => {
    // Corners at seconds 90 and 93 (and every 60 s on); slices of 30 s, three points each.
    const imei = '358409100000778';
    await insertRoute(t.db, imei, steppedRoute(240, 60, 31));
    const f = { car_data_id: imei, from: new Date(START).toISOString(), to: new Date(START + 240_000).toISOString() };
    const origin = START / 1000;
    const keptIn = async (split: number) => {
      const slices = { origin, slice: 30 };
      const a = await findRouteSlices(t.db, f, { ...slices, lo: null, hi: origin + split });
      const b = await findRouteSlices(t.db, f, { ...slices, lo: origin + split, hi: null });
      return [...a.points, ...b.points].map((p) => (new Date(p.recorded_at).getTime() - START) / 1000);
    };
    // Second 90 begins the second read; second 93 ends the first.
    for (const split of [90, 94]) expect(await keptIn(split)).toEqual(expect.arrayContaining([90, 93]));
  });
});
