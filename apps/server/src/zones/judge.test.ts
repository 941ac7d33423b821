import geodesic from 'geographiclib-geodesic';
import { describe, expect, it } from 'vitest';
import { circle, polygon } from './geometry.js';
import { judgeTrack, zoneDistance, type GpsPoint } from './judge.js';

const WGS84 = geodesic.Geodesic.WGS84;
/** The point `s` metres from `from` along the azimuth. */
const along = (from: { lat: number; lng: number }, azimuth: number, s: number) => {
  const r = WGS84.Direct(from.lat, from.lng, azimuth, s);
  return { lat: r.lat2!, lng: r.lon2! };
};
const track = (points: { lat: number; lng: number }[]): GpsPoint[] => points.map((p, i) => ({ ...p, at: i * 1000 }));

describe('zone judgement', () => {
  const centre = { lat: 35.681236, lng: 139.767125 };

  it('a circle is judged on the ellipsoid to well within a metre, up to 100 km', () => {
    for (const lat of [24.3, 35.68, 45.5]) {
      for (const radius of [50, 2_000, 100_000]) {
        const zone = circle({ lat, lng: 139.7 }, radius);
        for (const azimuth of [0, 37, 90, 180, 270]) {
          expect(zoneDistance(zone, along({ lat, lng: 139.7 }, azimuth, radius - 0.3))).toBeLessThan(0);
          expect(zoneDistance(zone, along({ lat, lng: 139.7 }, azimuth, radius + 0.3))).toBeGreaterThan(0);
        }
      }
    }
  });

  it('a circle crossed on a straight line: enter and exit at the first points past the computed crossings', () => {
    // West to east through the centre: the boundary is 500 m either side, at 500 m and 1,500 m along.
    const start = along(centre, 270, 1000);
    const points = track(Array.from({ length: 300 }, (_, i) => along(start, 90, i * 7)));
    const { crossings, state } = judgeTrack(circle(centre, 500), points);
    expect(crossings.map((c) => [c.kind, c.point.at / 1000])).toEqual([
      ['zone_enter', Math.floor(500 / 7) + 1],
      ['zone_exit', Math.floor(1500 / 7) + 1],
    ]);
    expect(state).toBeUndefined();
  });

  it('a polygon crossed along a parallel: enter and exit past its west and east edges', () => {
    const rect = polygon([
      { lat: 35.68, lng: 139.76 },
      { lat: 35.68, lng: 139.77 },
      { lat: 35.69, lng: 139.77 },
      { lat: 35.69, lng: 139.76 },
    ]);
    const points = track(Array.from({ length: 60 }, (_, i) => ({ lat: 35.685, lng: 139.755 + i * 0.0004 })));
    const { crossings } = judgeTrack(rect, points);
    // Past 139.76 at i = 13 (139.7602), past 139.77 at i = 38 (139.7702).
    expect(crossings.map((c) => [c.kind, c.point.at / 1000])).toEqual([
      ['zone_enter', 13],
      ['zone_exit', 38],
    ]);
  });

  it('jitter at the boundary gives one enter and one exit', () => {
    const zone = circle(centre, 300);
    const at = (s: number) => along(centre, 45, s);
    const approach = [600, 500, 400, 350].map(at);
    // Points either side of the boundary by 8 m, alternating, on the way in and on the way out.
    const jitter = Array.from({ length: 20 }, (_, i) => at(i % 2 ? 292 : 308));
    const inside = [250, 200, 150, 200, 250].map(at);
    const away = [400, 500, 700].map(at);
    const { crossings } = judgeTrack(zone, track([...approach, ...jitter, ...inside, ...jitter, ...away]));
    expect(crossings.map((c) => c.kind)).toEqual(['zone_enter', 'zone_exit']);
  });

  it('one point well inside (past the margin) enters at once; one just inside waits for the next', () => {
    const zone = circle(centre, 300);
    expect(judgeTrack(zone, track([along(centre, 0, 250)])).crossings).toHaveLength(1);
    const once = judgeTrack(zone, track([along(centre, 0, 295)]));
    expect(once.crossings).toHaveLength(0);
    expect(once.state).toMatchObject({ inside: false, pending: 1 });
  });
});
