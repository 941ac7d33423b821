import { defaultTripSettings } from '@fleet/contract';
import { describe, expect, it } from 'vitest';
import { Detector, cutsAfter, haversine, type DetectorState, type Position } from './detect.js';
import { generateDrive, toLatLng, type Leg } from './drive.fixture.js';

const rule = defaultTripSettings();
/** 2026-11-23 08:00 JST */
const START = Date.parse('2026-11-23T08:00:00+09:00');

const detect = (points: Position[], extraCuts: number[] = []) => {
  const d = new Detector(rule, cutsAfter(extraCuts)).feed(points);
  const pending = d.pending();
  return { trips: [...d.settled.trips, ...pending.trips], stops: [...d.settled.stops, ...pending.stops] };
};

/** A drive of three stops and two trips through streets (right-angled turns). */
const legs: Leg[] = [
  { park: 600, jitterM: 8 },
  {
    drive: [
      [400, 0],
      [400, 900],
      [1500, 900],
      [1500, 2100],
      [2300, 2400],
    ],
    kmh: 40,
  },
  { park: 900, jitterM: 12 },
  {
    drive: [
      [2300, 3000],
      [1800, 3400],
    ],
    kmh: 30,
  },
  { park: 480, jitterM: 5 },
];

describe('trip and stop detection on generated drives', () => {
  for (const sampleS of [1, 5, 15]) {
    it(`finds the stops and trips of a known drive (a position every ${sampleS} s)`, () => {
      const { points, truth } = generateDrive(legs, { start: START, sampleS, seed: sampleS });
      const found = detect(points);
      expect(found.stops).toHaveLength(3);
      expect(found.trips).toHaveLength(2);
      const sample = sampleS * 1000;
      found.stops.forEach((s, i) => {
        const want = truth.stops[i]!;
        expect(Math.abs(s.start_at - want.start)).toBeLessThanOrEqual(sample);
        // The last stop is still going on: no end yet.
        if (i === 2) expect(s.end_at).toBeNull();
        else expect(Math.abs(s.end_at! - want.end)).toBeLessThanOrEqual(sample);
      });
      found.trips.forEach((t, i) => {
        const want = truth.trips[i]!;
        expect(Math.abs(t.start_at - want.start)).toBeLessThanOrEqual(sample);
        expect(Math.abs(t.end_at - want.end)).toBeLessThanOrEqual(sample);
        expect(Math.abs(t.distance_m - want.distance) / want.distance).toBeLessThan(0.05);
        expect(t.max_speed_kmh).toBe(i === 0 ? 40 : 30);
      });
    });
  }

  it('ignores GPS scatter while parked: no distance, no split, with or without a reported speed', () => {
    for (const speedKmh of [null, 3]) {
      const { points } = generateDrive([{ park: 2 * 3600, jitterM: 40, speedKmh }], { start: START, seed: 7 });
      // One wild fix 150 m off, then back.
      const i = 3000;
      points[i] = { ...points[i]!, lat: points[i]!.lat + 150 / 111_320 };
      const found = detect(points);
      expect(found.trips).toEqual([]);
      expect(found.stops).toHaveLength(1);
      expect(found.stops[0]!.start_at).toBe(START);
      // The stop sits where the vehicle stood, the scatter averaged out.
      const centre = toLatLng(0, 0);
      expect(haversine(found.stops[0]!.lat, found.stops[0]!.lng, centre.lat, centre.lng)).toBeLessThan(10);
    }
  });

  it('a terminal silent while parked: the time between its last position and the next one there is a stop', () => {
    const { points, truth } = generateDrive(legs, { start: START, sampleS: 5, seed: 9 });
    // Not one position during the middle stop: the last one arriving (at speed) and the first one leaving.
    const middle = truth.stops[1]!;
    const sleeping = points.filter((p) => p.t < middle.start || p.t > middle.end);
    const found = detect(sleeping);
    expect(found.trips).toHaveLength(2);
    expect(found.stops).toHaveLength(3);
    expect(Math.abs(found.stops[1]!.start_at - middle.start)).toBeLessThanOrEqual(5000);
    expect(Math.abs(found.stops[1]!.end_at! - middle.end)).toBeLessThanOrEqual(5000);
    found.trips.forEach((t, i) =>
      expect(Math.abs(t.distance_m - truth.trips[i]!.distance) / truth.trips[i]!.distance).toBeLessThan(0.05),
    );
  });

  it('a terminal silent for months that reports again elsewhere: it stood at its last place, no drive is made up', () => {
    const { points } = generateDrive(legs, { start: START, sampleS: 5, seed: 4 });
    const last = points.at(-1)!;
    // 280 days later, 10 km away (carried, or driven while the terminal was off): no path is known.
    const back = last.t + 280 * 86_400_000;
    const far = toLatLng(10_000, 0);
    const later: Position[] = Array.from({ length: 13 }, (_, i) => ({ t: back + i * 30_000, ...far, speed: 0 }));
    const found = detect([...points, ...later]);
    // The day's two trips, and no trip (or piece of one, cut at each midnight) made of the silence.
    expect(found.trips).toHaveLength(2);
    expect(found.trips.every((t) => t.end_at <= last.t)).toBe(true);
    // The last stop lasted until the terminal spoke again.
    expect(found.stops).toHaveLength(4);
    expect(found.stops[2]!.end_at).toBe(back);
    expect(found.stops[3]!.start_at).toBe(back);
  });

  it('a terminal silent in a long tunnel: the drive goes on through the silence', () => {
    const straight: Leg[] = [
      { park: 600 },
      {
        drive: [
          [0, 0],
          [10_000, 0],
        ],
        kmh: 60,
      },
      { park: 600 },
    ];
    const { points, truth } = generateDrive(straight, { start: START, sampleS: 5, seed: 5 });
    const drive = truth.trips[0]!;
    // Six minutes without a fix in the middle of the ten-minute drive: the gap is driven, not a stop.
    const mid = (drive.start + drive.end) / 2;
    const found = detect(points.filter((p) => p.t < mid - 180_000 || p.t > mid + 180_000));
    expect(found.stops).toHaveLength(2);
    expect(found.trips).toHaveLength(1);
    expect(Math.abs(found.trips[0]!.distance_m - drive.distance) / drive.distance).toBeLessThan(0.05);
  });

  it('a movement shorter than the trip minimum belongs to the stop', () => {
    const { points } = generateDrive([{ park: 600 }, { drive: [[300, 0]], kmh: 10 }, { park: 600 }], { start: START });
    const found = detect(points);
    expect(found.trips).toEqual([]);
    expect(found.stops).toHaveLength(1);
    expect(found.stops[0]).toMatchObject({ start_at: START, end_at: null });
  });

  it('a stop needs five minutes, unless the ignition is off', () => {
    const drive: Leg = { drive: [[2000, 0]], kmh: 50 };
    const back: Leg = { drive: [[0, 0]], kmh: 50 };
    const short = generateDrive([{ park: 600 }, drive, { park: 120 }, back, { park: 600 }], { start: START });
    expect(detect(short.points).stops).toHaveLength(2);
    const off = generateDrive([{ park: 600 }, drive, { park: 120, ignition: false }, back, { park: 600 }], {
      start: START,
    });
    const found = detect(off.points);
    expect(found.stops).toHaveLength(3);
    expect(found.trips).toHaveLength(2);
    expect(Math.abs(found.stops[1]!.start_at - off.truth.stops[1]!.start)).toBeLessThanOrEqual(1000);
  });

  it('cuts a trip across midnight in Japan into pieces whose distances add up', () => {
    const start = Date.parse('2026-11-23T23:40:00+09:00');
    const { points, truth } = generateDrive(
      [
        { park: 600 },
        {
          drive: [
            [0, 8000],
            [6000, 8000],
          ],
          kmh: 45,
        },
        { park: 600 },
      ],
      { start },
    );
    const found = detect(points);
    const midnight = Date.parse('2026-11-24T00:00:00+09:00');
    expect(found.trips).toHaveLength(2);
    const [before, after] = found.trips as [(typeof found.trips)[0], (typeof found.trips)[0]];
    expect(before.end_at).toBe(midnight);
    expect(after.start_at).toBe(midnight);
    expect(before.continued).toBe(false);
    expect(after.continued).toBe(true);
    const total = before.distance_m + after.distance_m;
    expect(Math.abs(total - truth.trips[0]!.distance) / truth.trips[0]!.distance).toBeLessThan(0.05);
    // 10 minutes at 45 km/h before midnight.
    expect(Math.abs(before.distance_m - 7_500)).toBeLessThan(100);
  });

  it('cuts a trip where the terminal changed vehicles, without marking it continued', () => {
    const { points } = generateDrive([{ park: 600 }, { drive: [[9000, 0]], kmh: 54 }, { park: 600 }], {
      start: START,
    });
    const moved = START + 900_000;
    const found = detect(points, [moved]);
    expect(found.trips.map((t) => [t.start_at, t.end_at, t.continued])).toEqual([
      [START + 599_000, moved, false],
      [moved, expect.any(Number), false],
    ]);
  });

  it('gives the same answer fed in pieces, its state kept as JSON between them', () => {
    const { points } = generateDrive(legs, { start: START, sampleS: 1, seed: 3 });
    const whole = detect(points);
    let state: DetectorState | undefined;
    const settled: ReturnType<typeof detect> = { trips: [], stops: [] };
    let last: ReturnType<Detector['pending']> = { trips: [], stops: [] };
    for (let i = 0; i < points.length; i += 777) {
      const d = new Detector(rule, cutsAfter([]), state).feed(points.slice(i, i + 777));
      settled.trips.push(...d.settled.trips);
      settled.stops.push(...d.settled.stops);
      last = d.pending();
      state = JSON.parse(JSON.stringify(d.state)) as DetectorState;
    }
    expect({ trips: [...settled.trips, ...last.trips], stops: [...settled.stops, ...last.stops] }).toEqual(whole);
  });

  it('ignores repeated and older positions in a feed', () => {
    const { points } = generateDrive(legs, { start: START, sampleS: 5 });
    const noisy = points.flatMap((p, i) => (i % 10 === 0 ? [p, p, points[Math.max(0, i - 3)]!] : [p]));
    expect(detect(noisy)).toEqual(detect(points));
  });
});
