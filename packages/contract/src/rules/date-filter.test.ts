import { describe, expect, it } from 'vitest';
import { passesDateFilter } from './date-filter.js';

describe('passesDateFilter', () => {
  const t = '2026-05-10T12:00:00Z';
  it('passes when both bounds are empty', () => {
    expect(passesDateFilter(t, '', '')).toBe(true);
    expect(passesDateFilter(t, null, undefined)).toBe(true);
  });
  it('passes inside the bounds, bounds included', () => {
    expect(passesDateFilter(t, '2026-05-10T00:00:00Z', '2026-05-11T00:00:00Z')).toBe(true);
    expect(passesDateFilter(t, t, t)).toBe(true);
  });
  it('fails outside the bounds', () => {
    expect(passesDateFilter(t, '2026-05-11T00:00:00Z', '2026-05-12T00:00:00Z')).toBe(false);
    expect(passesDateFilter(t, '2026-05-01T00:00:00Z', '2026-05-09T00:00:00Z')).toBe(false);
  });
  it('does not pass with only one bound, as the spec states', () => {
    expect(passesDateFilter(t, '2026-05-01T00:00:00Z', '')).toBe(false);
    expect(passesDateFilter(t, '', '2026-05-11T00:00:00Z')).toBe(false);
  });
  it('does not pass an unreadable target', () => {
    expect(passesDateFilter('not a date', '2026-05-01', '2026-05-11')).toBe(false);
  });
});
