import { describe, expect, it } from 'vitest';
import { frequentPlaces, nightMs } from './places.js';

const jst = (s: string) => new Date(`${s}+09:00`);
const HOME = { lat: 35.6812, lng: 139.7671 };
/** About 50 m north of HOME: the same place. */
const NEAR_HOME = { lat: 35.68165, lng: 139.7671 };
/** About 2 km away. */
const OFFICE = { lat: 35.6586, lng: 139.7454 };

describe('nightMs', () => {
  it('counts only 0:00-5:00 in Japan, over several nights', () => {
    expect(nightMs(jst('2026-12-01T22:00:00').getTime(), jst('2026-12-02T07:00:00').getTime())).toBe(5 * 3600_000);
    expect(nightMs(jst('2026-12-01T04:00:00').getTime(), jst('2026-12-03T01:00:00').getTime())).toBe(
      (1 + 5 + 1) * 3600_000,
    );
    expect(nightMs(jst('2026-12-01T06:00:00').getTime(), jst('2026-12-01T23:59:00').getTime())).toBe(0);
  });
});

describe('frequentPlaces', () => {
  const from = jst('2026-12-01T00:00:00');
  const to = jst('2026-12-04T00:00:00');
  it('groups stops within 100 m, adds their time and night time, most time first', () => {
    const places = frequentPlaces(
      [
        { ...OFFICE, start_at: jst('2026-12-01T09:00:00'), end_at: jst('2026-12-01T18:00:00') },
        { ...HOME, start_at: jst('2026-12-01T19:00:00'), end_at: jst('2026-12-02T08:00:00') },
        { ...OFFICE, start_at: jst('2026-12-02T09:00:00'), end_at: jst('2026-12-02T10:00:00') },
        { ...NEAR_HOME, start_at: jst('2026-12-02T19:00:00'), end_at: jst('2026-12-03T08:00:00') },
      ],
      from,
      to,
    );
    expect(places).toHaveLength(2);
    expect(places[0]).toMatchObject({ visits: 2, total_s: 26 * 3600, night_s: 10 * 3600 });
    expect(places[0]!.lat).toBeCloseTo((HOME.lat + NEAR_HOME.lat) / 2, 6);
    expect(places[1]).toMatchObject({ ...OFFICE, visits: 2, total_s: 10 * 3600, night_s: 0 });
  });

  it('cuts stops to the range; a stop still going counts up to its last position', () => {
    const places = frequentPlaces(
      [
        { ...HOME, start_at: jst('2026-11-30T20:00:00'), end_at: jst('2026-12-01T06:00:00') },
        { ...OFFICE, start_at: jst('2026-12-03T22:00:00'), end_at: null, last_at: jst('2026-12-04T03:00:00') },
      ],
      from,
      to,
    );
    expect(places).toEqual([
      { ...HOME, visits: 1, total_s: 6 * 3600, night_s: 5 * 3600 },
      { ...OFFICE, visits: 1, total_s: 2 * 3600, night_s: 0 },
    ]);
  });
});
