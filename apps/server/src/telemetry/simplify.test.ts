import { describe, expect, it } from 'vitest';
import { simplifyRoute } from './simplify.js';

const line = (n: number, from = { lat: 35.6, lng: 139.7 }, step = { lat: 0.0001, lng: 0.0001 }) =>
  Array.from({ length: n }, (_, i) => ({ lat: from.lat + i * step.lat, lng: from.lng + i * step.lng, i }));

describe('simplifyRoute', () => {
  it('returns a small route unchanged', () => {
    const pts = line(10);
    expect(simplifyRoute(pts, 20)).toEqual(pts);
  });

  it('keeps the first and last point and never more than the budget', () => {
    const pts = line(1000).map((p, i) => ({ ...p, lat: p.lat + Math.sin(i / 20) * 0.01 }));
    const out = simplifyRoute(pts, 50);
    expect(out.length).toBeLessThanOrEqual(50);
    expect(out[0]).toBe(pts[0]);
    expect(out.at(-1)).toBe(pts.at(-1));
  });

  it('keeps the corners of an L-shaped route', () => {
    const east = line(500, { lat: 35.6, lng: 139.7 }, { lat: 0, lng: 0.0001 });
    const corner = east.at(-1)!;
    const north = line(500, { lat: corner.lat, lng: corner.lng }, { lat: 0.0001, lng: 0 }).slice(1);
    const route = [...east, ...north];
    const out = simplifyRoute(route, 3);
    expect(out).toHaveLength(3);
    expect(out[1]).toBe(corner);
  });

  it('drops a straight stretch and repeated parked points down to its ends', () => {
    const parked = Array.from({ length: 300 }, () => ({ lat: 35.65, lng: 139.75 }));
    const out = simplifyRoute([...line(300), ...parked], 100);
    expect(out.length).toBeLessThanOrEqual(4);
  });

  it('keeps the points in their original order', () => {
    const pts = line(5000).map((p, i) => ({ ...p, lng: p.lng + Math.cos(i / 7) * 0.001 }));
    const out = simplifyRoute(pts, 400);
    const order = out.map((p) => p.i);
    expect(order).toEqual([...order].sort((a, b) => a - b));
  });

  it('handles a day of one-second points', () => {
    const day = Array.from({ length: 86_400 }, (_, i) => ({
      lat: 35.6 + Math.sin(i / 900) * 0.05,
      lng: 139.7 + (i / 86_400) * 0.3,
    }));
    const out = simplifyRoute(day, 2000);
    expect(out.length).toBe(2000);
  });
});
