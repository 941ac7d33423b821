import { describe, expect, it } from 'vitest';
import { routeStats } from './route-stats';

describe('routeStats', () => {
  it('sums the great-circle distance, the duration and the top speed', () => {
    const s = routeStats([
      { lat: 35.6812, lng: 139.7671, recorded_at: '2026-01-01T00:00:00Z', speed: 20 },
      { lat: 35.6586, lng: 139.7454, recorded_at: '2026-01-01T00:10:00Z', speed: 45 },
    ]);
    expect(s.km).toBeGreaterThan(3.0);
    expect(s.km).toBeLessThan(3.3);
    expect(s.minutes).toBe(10);
    expect(s.top).toBe(45);
  });
  it('is zero for fewer than two points', () => {
    expect(routeStats([])).toEqual({ km: 0, minutes: 0, top: 0 });
  });
});
