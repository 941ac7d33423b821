import { describe, expect, it } from 'vitest';
import { speedBands, speedColor, speedRuns, UNKNOWN_SPEED_COLOR } from './speed-bands';

describe('speed colours', () => {
  it('picks the band a speed falls in', () => {
    expect(speedColor(0)).toBe(speedBands[0].color);
    expect(speedColor(20)).toBe(speedBands[1].color);
    expect(speedColor(79.9)).toBe(speedBands[3].color);
    expect(speedColor(120)).toBe(speedBands[4].color);
    expect(speedColor(null)).toBe(UNKNOWN_SPEED_COLOR);
  });

  it('joins segments of one colour and keeps the line unbroken', () => {
    const p = (lat: number, speed: number) => ({ lat, lng: 139, speed });
    const runs = speedRuns([p(35, 10), p(35.1, 12), p(35.2, 50), p(35.3, 55), p(35.4, 10)]);
    expect(runs.map((r) => r.color)).toEqual([speedBands[0].color, speedBands[2].color]);
    expect(runs[0]!.positions).toEqual([
      [35, 139],
      [35.1, 139],
      [35.2, 139],
    ]);
    // The second run starts where the first ended.
    expect(runs[1]!.positions[0]).toEqual([35.2, 139]);
    expect(runs[1]!.positions).toHaveLength(3);
  });
});
