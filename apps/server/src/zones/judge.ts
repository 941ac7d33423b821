import { signedDistance, type LatLng, type Shape } from './geometry.js';

/**
 * Enter and exit with hysteresis (docs/zones.md "Judgement"): GPS jitter at a boundary must not flap.
 * A vehicle outside enters when a point is at least MARGIN inside, or when two points in a row are
 * inside; inside, it leaves when a point is at least MARGIN outside, or two in a row are outside. The
 * event carries the first point past the boundary (the crossing as near as the points tell it).
 */
export const ZONE_MARGIN_M = 20;
/** What the judgement needs to know about the margins: the plane may answer away from these. */
const NEAR = [0, -ZONE_MARGIN_M, ZONE_MARGIN_M];

export interface GpsPoint extends LatLng {
  /** Epoch ms. */
  at: number;
}

export interface ZoneState {
  inside: boolean;
  /** Consecutive points beyond the boundary so far (0 or 1), the first of them in `since`. */
  pending: number;
  since: GpsPoint;
}

export interface ZoneCrossing {
  kind: 'zone_enter' | 'zone_exit';
  point: GpsPoint;
}

/**
 * One point judged for one zone. `state` undefined means outside and settled; the answer's state
 * likewise (the caller stores nothing for it). `d` is the point's signed distance to the boundary
 * (Infinity when the point is nowhere near the zone).
 */
export function step(
  state: ZoneState | undefined,
  p: GpsPoint,
  d: number,
): { state: ZoneState | undefined; crossing?: ZoneCrossing } {
  const inside = state?.inside ?? false;
  const beyond = inside ? d > 0 : d < 0;
  if (!beyond) return { state: inside ? { inside, pending: 0, since: state!.since } : undefined };
  const since = state && state.pending > 0 ? state.since : p;
  const clear = inside ? d >= ZONE_MARGIN_M : d <= -ZONE_MARGIN_M;
  if (clear || (state?.pending ?? 0) >= 1) {
    const crossing: ZoneCrossing = { kind: inside ? 'zone_exit' : 'zone_enter', point: since };
    return { state: inside ? undefined : { inside: true, pending: 0, since }, crossing };
  }
  return { state: { inside, pending: 1, since: p } };
}

/** The signed distance the judgement uses (exact near the boundary and the margins). */
export const zoneDistance = (shape: Shape, p: LatLng) => signedDistance(shape, p, NEAR);

/** A whole track judged against one zone, from a state: the crossings and the state after it. */
export function judgeTrack(shape: Shape, points: readonly GpsPoint[], from?: ZoneState) {
  let state = from;
  const crossings: ZoneCrossing[] = [];
  for (const p of points) {
    const r = step(state, p, zoneDistance(shape, p));
    state = r.state;
    if (r.crossing) crossings.push(r.crossing);
  }
  return { state, crossings };
}
