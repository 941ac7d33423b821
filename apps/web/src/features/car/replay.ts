/**
 * The route replay's clock (走行ルート): route time runs at `speed` times real time between the first and
 * the last point; the marker sits between the two points around it, where a constant pace would put it.
 * A silence longer than GAP_MS (a stop, the terminal asleep) is jumped over, so a night parked never plays
 * as hours of a still marker: the stop markers show where and how long.
 */
export const GAP_MS = 120_000;
export const replaySpeeds = [1, 5, 10, 30, 60] as const;

export interface TimedPoint {
  lat: number;
  lng: number;
  recorded_at: string;
  speed?: number | null;
}

export interface ReplayAt {
  lat: number;
  lng: number;
  /** The last point at or before the time (the slider's place). */
  index: number;
  speed: number | null;
}

export const timesOf = (points: readonly TimedPoint[]) => points.map((p) => Date.parse(p.recorded_at));

/** Index of the last time at or before `t` (0 before the first). */
export function indexAt(times: readonly number[], t: number): number {
  let lo = 0;
  let hi = times.length - 1;
  if (hi < 0 || t <= times[0]!) return 0;
  if (t >= times[hi]!) return hi;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (times[mid]! <= t) lo = mid;
    else hi = mid;
  }
  return lo;
}

/** Where the vehicle was at route time `t`. */
export function positionAt(points: readonly TimedPoint[], times: readonly number[], t: number): ReplayAt | null {
  if (points.length === 0) return null;
  const i = indexAt(times, t);
  const a = points[i]!;
  const b = points[i + 1];
  if (!b || times[i + 1]! - times[i]! > GAP_MS || t <= times[i]!) {
    return { lat: a.lat, lng: a.lng, index: i, speed: a.speed ?? null };
  }
  const f = (t - times[i]!) / (times[i + 1]! - times[i]!);
  return { lat: a.lat + (b.lat - a.lat) * f, lng: a.lng + (b.lng - a.lng) * f, index: i, speed: a.speed ?? null };
}

/**
 * The route time after `elapsedMs` of real time at `speed`×. Landing inside a silence longer than GAP_MS
 * goes on at the point after it. The end is clamped to the last point.
 */
export function advance(times: readonly number[], t: number, elapsedMs: number, speed: number): number {
  if (times.length === 0) return t;
  const last = times[times.length - 1]!;
  let next = Math.min(last, t + elapsedMs * speed);
  const i = indexAt(times, next);
  if (i < times.length - 1 && times[i + 1]! - times[i]! > GAP_MS && next > times[i]!) next = times[i + 1]!;
  return next;
}
