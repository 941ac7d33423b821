import { parseDateBound } from '@fleet/contract';
import { describe, expect, it } from 'vitest';
import { presetRange } from './route-range';

// 2026-11-29 01:30 in Japan (28th 16:30 UTC).
const asOf = Date.parse('2026-11-28T16:30:00Z');
const custom = { from: 'a', to: 'b' };
const instant = (s: string, side: 'from' | 'to') => new Date(parseDateBound(s, side)!).toISOString();

describe('route presets', () => {
  it('reads 今日 and 昨日 as days in Japan', () => {
    const today = presetRange('today', asOf, custom);
    expect(instant(today.from, 'from')).toBe('2026-11-28T15:00:00.000Z');
    expect(today.to).toBe('2026-11-28T16:30:00.000Z');
    const y = presetRange('yesterday', asOf, custom);
    expect(instant(y.from, 'from')).toBe('2026-11-27T15:00:00.000Z');
    expect(Date.parse(instant(y.to, 'to'))).toBeGreaterThanOrEqual(Date.parse('2026-11-28T14:59:59.000Z'));
  });

  it('counts hours back from the moment asked', () => {
    expect(presetRange('6h', asOf, custom)).toEqual({
      from: '2026-11-28T10:30:00.000Z',
      to: '2026-11-28T16:30:00.000Z',
    });
    expect(presetRange('custom', asOf, custom)).toBe(custom);
  });
});
