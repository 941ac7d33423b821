import geodesic from 'geographiclib-geodesic';

/**
 * Distances for zones on the WGS84 ellipsoid (docs/zones.md "Distances"). A circle's boundary is the
 * set of points at `radius_m` from its centre along the ellipsoid (GeographicLib's geodesic, accurate
 * far below a millimetre); a polygon's edges are straight in a local plane around the zone (the
 * meridian and prime-vertical radii of curvature at its centre), which is what a map draws at zone
 * sizes. The exact geodesic costs microseconds, so circles are first measured in the local plane and
 * measured exactly only when the plane's answer is near a boundary the judgement cares about.
 */
const WGS84 = geodesic.Geodesic.WGS84;
const A = 6378137;
const F = 1 / 298.257223563;
const E2 = F * (2 - F);
const RAD = Math.PI / 180;

export interface LatLng {
  lat: number;
  lng: number;
}

/** Metres per degree of latitude and of longitude at a latitude. */
export function metresPerDegree(lat: number): { lat: number; lng: number } {
  const s = Math.sin(lat * RAD);
  const w = Math.sqrt(1 - E2 * s * s);
  const meridian = (A * (1 - E2)) / (w * w * w);
  const primeVertical = A / w;
  return { lat: meridian * RAD, lng: primeVertical * Math.cos(lat * RAD) * RAD };
}

/** The geodesic distance in metres. */
export const geodesicDistance = (a: LatLng, b: LatLng): number =>
  WGS84.Inverse(a.lat, a.lng, b.lat, b.lng, geodesic.Geodesic.DISTANCE).s12!;

/** A plane around a reference point: metres east (x) and north (y). */
export interface LocalPlane {
  x(p: LatLng): number;
  y(p: LatLng): number;
}
export function localPlane(ref: LatLng): LocalPlane {
  const k = metresPerDegree(ref.lat);
  return { x: (p) => (p.lng - ref.lng) * k.lng, y: (p) => (p.lat - ref.lat) * k.lat };
}

export interface Circle {
  kind: 'circle';
  centre: LatLng;
  radius: number;
}
export interface Polygon {
  kind: 'polygon';
  /** The vertices in the zone's plane, metres. */
  xs: Float64Array;
  ys: Float64Array;
  plane: LocalPlane;
}
export type Shape = Circle | Polygon;

export function circle(centre: LatLng, radius: number): Circle {
  return { kind: 'circle', centre, radius };
}

export function polygon(points: readonly LatLng[]): Polygon {
  const lat = points.reduce((s, p) => s + p.lat, 0) / points.length;
  const lng = points.reduce((s, p) => s + p.lng, 0) / points.length;
  const plane = localPlane({ lat, lng });
  return {
    kind: 'polygon',
    xs: Float64Array.from(points, (p) => plane.x(p)),
    ys: Float64Array.from(points, (p) => plane.y(p)),
    plane,
  };
}

/** The local plane's distance is this close to the geodesic one (generous: 0.1 % and a metre). */
const planeError = (d: number) => d * 1e-3 + 1;

/**
 * The signed distance from a point to the shape's boundary in metres: negative inside, positive
 * outside. `near` are the distances that matter to the caller (the boundary and the margins): away
 * from all of them the plane's answer is enough, since only its sign against each is used.
 */
export function signedDistance(shape: Shape, p: LatLng, near: readonly number[]): number {
  if (shape.kind === 'circle') {
    // Scaled at the mean latitude of the two points (not the centre's): well within planeError at 100 km.
    const k = metresPerDegree((shape.centre.lat + p.lat) / 2);
    const d = Math.hypot((p.lng - shape.centre.lng) * k.lng, (p.lat - shape.centre.lat) * k.lat) - shape.radius;
    const err = planeError(d + shape.radius);
    if (near.every((n) => Math.abs(d - n) > err)) return d;
    return geodesicDistance(shape.centre, p) - shape.radius;
  }
  return polygonSignedDistance(shape, shape.plane.x(p), shape.plane.y(p));
}

function polygonSignedDistance(poly: Polygon, x: number, y: number): number {
  const { xs, ys } = poly;
  const n = xs.length;
  let inside = false;
  let best = Infinity;
  for (let i = 0, j = n - 1; i < n; j = i++) {
    const xi = xs[i]!;
    const yi = ys[i]!;
    const xj = xs[j]!;
    const yj = ys[j]!;
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
    const dx = xj - xi;
    const dy = yj - yi;
    const len2 = dx * dx + dy * dy;
    const t = len2 === 0 ? 0 : Math.max(0, Math.min(1, ((x - xi) * dx + (y - yi) * dy) / len2));
    const ex = xi + t * dx - x;
    const ey = yi + t * dy - y;
    const d2 = ex * ex + ey * ey;
    if (d2 < best) best = d2;
  }
  const d = Math.sqrt(best);
  return inside ? -d : d;
}

/** The shape's bounding box in degrees, grown by `margin` metres on every side. */
export function boundingBox(
  zone: { lat: number | null; lng: number | null; radius_m: number | null; points: readonly LatLng[] | null },
  margin: number,
): [minLng: number, minLat: number, maxLng: number, maxLat: number] {
  const pts = zone.points ?? [{ lat: zone.lat!, lng: zone.lng! }];
  let minLat = Infinity;
  let maxLat = -Infinity;
  let minLng = Infinity;
  let maxLng = -Infinity;
  for (const p of pts) {
    minLat = Math.min(minLat, p.lat);
    maxLat = Math.max(maxLat, p.lat);
    minLng = Math.min(minLng, p.lng);
    maxLng = Math.max(maxLng, p.lng);
  }
  // A little more than the reach, for the plane's error and the curvature across the box.
  const reach = ((zone.radius_m ?? 0) + margin) * 1.01 + 1;
  const k = metresPerDegree(Math.max(Math.abs(minLat), Math.abs(maxLat)) + reach / 111_000);
  const dLat = reach / metresPerDegree((minLat + maxLat) / 2).lat;
  const dLng = reach / k.lng;
  return [minLng - dLng, minLat - dLat, maxLng + dLng, maxLat + dLat];
}
