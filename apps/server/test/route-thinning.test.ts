import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
 * One point a second for `seconds`, 10 m/s east, stepping 30 m north or south every 50 s (two 90° corners
 * three seconds apart), each point's heading the way it came in.
 */
function steppedRoute(seconds: number) {
  const points: { t: number; lat: number; lng: number; heading: number }[] = [];
  let x = 0;
  let y = 0;
  for (let s = 0; s < seconds; s++) {
    const inStep = s % 50 >= 20 && s % 50 < 23;
    const north = Math.floor(s / 50) % 2 === 0;
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

describe('a route thinned by the read', () => {
  let t: TestApp;
  const raw = steppedRoute(6000);
  beforeAll(async () => {
    t = await createTestApp();
    await sql`INSERT INTO gps_logs (car_data_id, recorded_at, lat, lng, speed, heading)
      SELECT ${IMEI}, to_timestamp(u.t / 1000.0), u.lat, u.lng, 36, u.heading
      FROM unnest(${raw.map((p) => p.t)}::float8[], ${raw.map((p) => p.lat)}::float8[],
        ${raw.map((p) => p.lng)}::float8[], ${raw.map((p) => p.heading)}::float8[]) AS u(t, lat, lng, heading)`.execute(
      t.db,
    );
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
});
