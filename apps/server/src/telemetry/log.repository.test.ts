import { describe, expect, it } from 'vitest';
import { ShortWindows } from './log.repository.js';

describe('ShortWindows', () => {
  it('skips the window for a read of more rows than it last held, until the hint expires', () => {
    const hints = new ShortWindows(1000);
    expect(hints.expect('battery a', 1001, 0)).toBe(false);
    hints.remember('battery a', 192, 0);
    expect(hints.expect('battery a', 1001, 10)).toBe(true);
    // A page the window held is still read through it; another log or terminal knows nothing.
    expect(hints.expect('battery a', 51, 10)).toBe(false);
    expect(hints.expect('battery b', 1001, 10)).toBe(false);
    expect(hints.expect('gps a', 1001, 10)).toBe(false);
    expect(hints.expect('battery a', 1001, 999)).toBe(true);
    expect(hints.expect('battery a', 1001, 1000)).toBe(false);
    // Expired, it was forgotten: a later look finds nothing either.
    expect(hints.expect('battery a', 1001, 10)).toBe(false);
  });

  it('keeps at most `max` hints, dropping the one remembered longest ago', () => {
    const hints = new ShortWindows(60_000, 2);
    hints.remember('a', 0, 0);
    hints.remember('b', 0, 0);
    hints.remember('a', 0, 1);
    hints.remember('c', 0, 2);
    expect(['a', 'b', 'c'].map((k) => hints.expect(k, 1, 3))).toEqual([true, false, true]);
  });
});
