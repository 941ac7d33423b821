/** Small-scale geometry for the simulator: distances in metres, bearings in degrees. */
export interface LatLng {
  lat: number;
  lng: number;
}

const R = 6_371_000;
const rad = (d: number) => (d * Math.PI) / 180;

export function distanceM(a: LatLng, b: LatLng): number {
  const dLat = rad(b.lat - a.lat);
  const dLng = rad(b.lng - a.lng);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(rad(a.lat)) * Math.cos(rad(b.lat)) * Math.sin(dLng / 2) ** 2;
  return 2 * R * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** Initial bearing from a to b, 0 (north) to 360, clockwise. */
export function bearingDeg(a: LatLng, b: LatLng): number {
  const y = Math.sin(rad(b.lng - a.lng)) * Math.cos(rad(b.lat));
  const x =
    Math.cos(rad(a.lat)) * Math.sin(rad(b.lat)) -
    Math.sin(rad(a.lat)) * Math.cos(rad(b.lat)) * Math.cos(rad(b.lng - a.lng));
  return ((Math.atan2(y, x) * 180) / Math.PI + 360) % 360;
}

/** A polyline with the distance travelled to each vertex, to interpolate along. */
export class Route {
  readonly cumulative: number[];
  readonly length: number;

  constructor(readonly points: readonly LatLng[]) {
    if (points.length < 2) throw new Error('a route needs two points');
    this.cumulative = [0];
    for (let i = 1; i < points.length; i++)
      this.cumulative.push(this.cumulative[i - 1]! + distanceM(points[i - 1]!, points[i]!));
    this.length = this.cumulative.at(-1)!;
  }

  /** Where a vehicle is after `travelled` metres, and which way it faces. */
  at(travelled: number): LatLng & { heading: number } {
    const d = Math.max(0, Math.min(this.length, travelled));
    let i = 1;
    while (i < this.points.length - 1 && this.cumulative[i]! < d) i++;
    const a = this.points[i - 1]!;
    const b = this.points[i]!;
    const span = this.cumulative[i]! - this.cumulative[i - 1]!;
    const f = span > 0 ? (d - this.cumulative[i - 1]!) / span : 1;
    return { lat: a.lat + (b.lat - a.lat) * f, lng: a.lng + (b.lng - a.lng) * f, heading: bearingDeg(a, b) };
  }
}

/**
 * A street-like path from a to b: right-angle legs through jittered corners,
 * the way a car crosses a city grid rather than as the crow flies.
 */
export function cityPath(a: LatLng, b: LatLng, jitter: () => number): LatLng[] {
  const points: LatLng[] = [a];
  const legs = 2 + Math.floor(jitter() * 3);
  let cur = a;
  for (let i = 1; i < legs; i++) {
    const f = i / legs;
    const target = {
      lat: a.lat + (b.lat - a.lat) * f + (jitter() - 0.5) * 0.004,
      lng: a.lng + (b.lng - a.lng) * f + (jitter() - 0.5) * 0.004,
    };
    const corner = i % 2 ? { lat: cur.lat, lng: target.lng } : { lat: target.lat, lng: cur.lng };
    points.push(corner, target);
    cur = target;
  }
  points.push({ lat: b.lat, lng: cur.lng }, b);
  return points;
}
