import type { Position } from './detect.js';

/**
 * Generated drives with known truth, for the detection's tests and the bench: a vehicle parks, drives
 * along a polyline at a steady speed, parks again…, sampled every `sampleS` seconds, with GPS scatter
 * while parked. Coordinates are metres east/north of an origin in Tokyo.
 */
export type Leg =
  | { park: number; jitterM?: number; speedKmh?: number | null; ignition?: boolean }
  | { drive: [number, number][]; kmh: number };

export interface Truth {
  stops: { start: number; end: number }[];
  trips: { start: number; end: number; distance: number }[];
}

const ORIGIN = { lat: 35.681236, lng: 139.767125 };
export const toLatLng = (x: number, y: number, origin = ORIGIN) => ({
  lat: origin.lat + y / 111_320,
  lng: origin.lng + x / (111_320 * Math.cos((origin.lat * Math.PI) / 180)),
});

/** A small deterministic generator (mulberry32), so a failing case fails the same way every time. */
export function random(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const len = (path: [number, number][]) =>
  path.slice(1).reduce((s, p, i) => s + Math.hypot(p[0] - path[i]![0], p[1] - path[i]![1]), 0);

/** Positions of the legs from `start` (epoch ms) and the truth: when each stop and trip began and ended. */
export function generateDrive(
  legs: Leg[],
  opts: { start: number; sampleS?: number; seed?: number; origin?: { lat: number; lng: number } },
): { points: Position[]; truth: Truth } {
  const dt = (opts.sampleS ?? 1) * 1000;
  const rnd = random(opts.seed ?? 1);
  const points: Position[] = [];
  const truth: Truth = { stops: [], trips: [] };
  let t = opts.start;
  let at: [number, number] = [0, 0];
  for (const leg of legs) {
    if ('park' in leg) {
      const from = t;
      const end = t + leg.park * 1000;
      for (; t < end; t += dt) {
        const j = leg.jitterM ?? 0;
        const x = at[0] + (rnd() * 2 - 1) * j;
        const y = at[1] + (rnd() * 2 - 1) * j;
        const speed = leg.speedKmh === undefined ? 0 : leg.speedKmh === null ? null : rnd() * leg.speedKmh;
        points.push({ t, ...toLatLng(x, y, opts.origin), speed, ignition: leg.ignition ?? null });
      }
      truth.stops.push({ start: from, end: t - dt });
    } else {
      const path: [number, number][] = [at, ...leg.drive];
      const total = len(path);
      const v = leg.kmh / 3.6;
      const from = t - dt;
      let seg = 0;
      let into = 0;
      // The first moving sample is one step along the path.
      for (let s = v * (dt / 1000); ; s += v * (dt / 1000)) {
        if (s >= total) break;
        let rest = s - into;
        while (seg < path.length - 1) {
          const a = path[seg]!;
          const b = path[seg + 1]!;
          const l = Math.hypot(b[0] - a[0], b[1] - a[1]);
          if (rest <= l) {
            const f = rest / l;
            const x = a[0] + (b[0] - a[0]) * f;
            const y = a[1] + (b[1] - a[1]) * f;
            points.push({ t, ...toLatLng(x, y, opts.origin), speed: leg.kmh, ignition: null });
            break;
          }
          rest -= l;
          into += l;
          seg++;
        }
        t += dt;
      }
      at = path[path.length - 1]!;
      truth.trips.push({ start: from, end: t, distance: total });
    }
  }
  return { points, truth };
}
