import { describe, expect, it } from 'vitest';
import { Route, bearingDeg, cityPath, distanceM } from './geo.js';
import { createRandom } from './random.js';

const tokyo = { lat: 35.6812, lng: 139.7671 };
const shinjuku = { lat: 35.6896, lng: 139.7006 };

describe('geo', () => {
  it('measures Tokyo station to Shinjuku station as about 6 km, heading west', () => {
    expect(distanceM(tokyo, shinjuku)).toBeGreaterThan(5900);
    expect(distanceM(tokyo, shinjuku)).toBeLessThan(6200);
    expect(bearingDeg(tokyo, shinjuku)).toBeGreaterThan(270);
    expect(bearingDeg(tokyo, shinjuku)).toBeLessThan(290);
  });

  it('interpolates along a route and clamps at its ends', () => {
    const route = new Route([tokyo, { lat: tokyo.lat, lng: 139.7771 }, { lat: 35.6912, lng: 139.7771 }]);
    const mid = route.at(route.cumulative[1]! / 2);
    expect(mid.lat).toBeCloseTo(tokyo.lat, 6);
    expect(mid.lng).toBeCloseTo(139.7721, 4);
    expect(mid.heading).toBeCloseTo(90, 0);
    expect(route.at(-5)).toMatchObject(tokyo);
    expect(route.at(route.length + 100)).toMatchObject({ lat: 35.6912, lng: 139.7771 });
  });

  it('builds a city path that starts and ends at the places', () => {
    const path = cityPath(tokyo, shinjuku, () => createRandom(1).next());
    expect(path[0]).toEqual(tokyo);
    expect(path.at(-1)).toEqual(shinjuku);
    expect(new Route(path).length).toBeLessThan(distanceM(tokyo, shinjuku) * 2);
  });
});
