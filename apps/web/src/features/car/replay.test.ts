import { describe, expect, it } from 'vitest';
import { advance, GAP_MS, indexAt, positionAt, timesOf } from './replay';

const at = (s: number) => new Date(Date.UTC(2026, 10, 29, 0, 0, s)).toISOString();
const points = [
  { lat: 35, lng: 139, recorded_at: at(0), speed: 30 },
  { lat: 35.01, lng: 139.02, recorded_at: at(60), speed: 40 },
  // A long stop: the next point comes 30 minutes later.
  { lat: 35.02, lng: 139.04, recorded_at: at(60 + 1800), speed: 0 },
];
const times = timesOf(points);

describe('route replay', () => {
  it('finds the last point at or before a time', () => {
    expect(indexAt(times, times[0]! - 1)).toBe(0);
    expect(indexAt(times, times[0]! + 59_000)).toBe(0);
    expect(indexAt(times, times[1]!)).toBe(1);
    expect(indexAt(times, times[2]! + 1)).toBe(2);
  });

  it('puts the marker between two points at a constant pace', () => {
    const p = positionAt(points, times, times[0]! + 30_000)!;
    expect(p.lat).toBeCloseTo(35.005, 6);
    expect(p.lng).toBeCloseTo(139.01, 6);
    expect(p.index).toBe(0);
  });

  it('runs route time at the chosen speed', () => {
    expect(advance(times, times[0]!, 1000, 1)).toBe(times[0]! + 1000);
    expect(advance(times, times[0]!, 1000, 60)).toBe(times[0]! + 60_000);
  });

  it('jumps over a silence longer than the gap, and stops at the end', () => {
    expect(times[2]! - times[1]!).toBeGreaterThan(GAP_MS);
    // Landing inside the 30-minute silence goes on at the point after it.
    expect(advance(times, times[1]!, 1000, 60)).toBe(times[2]!);
    // The marker waits at the stop's first point, it does not drift across the silence.
    expect(positionAt(points, times, times[1]! + 600_000)!.lat).toBe(35.01);
    expect(advance(times, times[2]!, 1000, 60)).toBe(times[2]!);
  });
});
