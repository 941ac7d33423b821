import { describe, expect, it } from 'vitest';
import { wireOfUtcJson } from './latest-state.repository.js';

describe('wireOfUtcJson', () => {
  it("cuts the wire's text from a timestamp's JSON: sub-millisecond digits cut, missing ones zero", () => {
    expect(wireOfUtcJson('2026-11-23T01:02:03')).toBe('2026-11-23T01:02:03.000Z');
    expect(wireOfUtcJson('2026-11-23T01:02:03.1')).toBe('2026-11-23T01:02:03.100Z');
    expect(wireOfUtcJson('2026-11-23T01:02:03.12')).toBe('2026-11-23T01:02:03.120Z');
    expect(wireOfUtcJson('2026-11-23T01:02:03.999999')).toBe('2026-11-23T01:02:03.999Z');
    expect(wireOfUtcJson(null)).toBeNull();
  });

  it('keeps the digits of a year before the common era as to_char did, and leaves a five-digit year to the schema', () => {
    expect(wireOfUtcJson('0001-06-01T00:00:00.5 BC')).toBe('0001-06-01T00:00:00.500Z');
    expect(wireOfUtcJson('10000-01-01T00:00:00')).toBe('10000-01-01T00:00:00Z');
  });
});
