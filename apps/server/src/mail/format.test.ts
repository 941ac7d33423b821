import { describe, expect, it } from 'vitest';
import { formatJst, mapLink } from './format.js';
import { RETRY_MAX_MS, retryDelayMs } from '../outbox/index.js';

describe('formatJst', () => {
  it('writes YYYY/MM/DD HH:mm in Japan time, across the date line', () => {
    expect(formatJst('2026-12-31T15:05:59Z')).toBe('2027/01/01 00:05');
    expect(formatJst(new Date('2026-06-01T02:30:00Z'))).toBe('2026/06/01 11:30');
  });
});

describe('mapLink', () => {
  it('points a map at the position with six decimals', () => {
    expect(mapLink(35.6812362, 139.7671248)).toBe('https://www.google.com/maps?q=35.681236,139.767125');
  });
});

describe('retryDelayMs', () => {
  it('doubles from one minute and stops growing at six hours', () => {
    expect([1, 2, 3].map(retryDelayMs)).toEqual([60_000, 120_000, 240_000]);
    expect(retryDelayMs(9)).toBe(256 * 60_000);
    expect(retryDelayMs(10)).toBe(RETRY_MAX_MS);
    expect(retryDelayMs(50)).toBe(RETRY_MAX_MS);
  });
});
