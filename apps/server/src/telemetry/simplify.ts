/**
 * Route simplification for car_get_gps_log: Ramer-Douglas-Peucker driven by a
 * point budget. The segment whose farthest point strays most is split first,
 * so whatever the budget the kept points are the ones that carry the shape
 * (corners, turns), and parked stretches of identical points cost nothing.
 */
export interface LatLng {
  lat: number;
  lng: number;
}

/** Squared degrees: about a centimetre, below GPS noise; rounding error is not a shape. */
const NEGLIGIBLE = 1e-14;

interface Segment {
  a: number;
  b: number;
  index: number;
  distance: number;
}

/** Max-heap on distance. */
class SegmentHeap {
  private items: Segment[] = [];
  get size() {
    return this.items.length;
  }
  push(s: Segment) {
    const h = this.items;
    h.push(s);
    let i = h.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (h[p]!.distance >= h[i]!.distance) break;
      [h[p], h[i]] = [h[i]!, h[p]!];
      i = p;
    }
  }
  pop(): Segment | undefined {
    const h = this.items;
    const top = h[0];
    const last = h.pop();
    if (h.length && last) {
      h[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < h.length && h[l]!.distance > h[m]!.distance) m = l;
        if (r < h.length && h[r]!.distance > h[m]!.distance) m = r;
        if (m === i) break;
        [h[m], h[i]] = [h[i]!, h[m]!];
        i = m;
      }
    }
    return top;
  }
}

/** Keeps at most maxPoints of the route, first and last always; returns the input when it is small enough. */
export function simplifyRoute<T extends LatLng>(points: readonly T[], maxPoints: number): T[] {
  const n = points.length;
  if (n <= maxPoints || n <= 2) return points.slice();
  // Local flat projection: a degree of longitude shrinks with latitude.
  const k = Math.cos((points.reduce((s, p) => s + p.lat, 0) / n) * (Math.PI / 180));
  const xs = Float64Array.from(points, (p) => p.lng * k);
  const ys = Float64Array.from(points, (p) => p.lat);

  const farthest = (a: number, b: number): Segment => {
    const dx = xs[b]! - xs[a]!;
    const dy = ys[b]! - ys[a]!;
    const len2 = dx * dx + dy * dy;
    let best = -1;
    let index = a + 1;
    for (let i = a + 1; i < b; i++) {
      let px = xs[i]! - xs[a]!;
      let py = ys[i]! - ys[a]!;
      if (len2 > 0) {
        const t = Math.max(0, Math.min(1, (px * dx + py * dy) / len2));
        px -= t * dx;
        py -= t * dy;
      }
      const d = px * px + py * py;
      if (d > best) {
        best = d;
        index = i;
      }
    }
    return { a, b, index, distance: best };
  };

  const keep = new Uint8Array(n);
  keep[0] = 1;
  keep[n - 1] = 1;
  let kept = 2;
  const heap = new SegmentHeap();
  heap.push(farthest(0, n - 1));
  while (kept < maxPoints && heap.size) {
    const s = heap.pop()!;
    if (s.distance <= NEGLIGIBLE) break;
    keep[s.index] = 1;
    kept++;
    if (s.index - s.a > 1) heap.push(farthest(s.a, s.index));
    if (s.b - s.index > 1) heap.push(farthest(s.index, s.b));
  }
  return points.filter((_, i) => keep[i] === 1);
}
