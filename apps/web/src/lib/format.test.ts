import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileStamp, formatBirthday, formatDateTime, japanInputValue } from './format';

// A PC outside Japan: what the console shows and fills in is Japan time all the same.
const zone = process.env.TZ;
beforeAll(() => {
  process.env.TZ = 'America/New_York';
});
afterAll(() => {
  process.env.TZ = zone;
});

describe('formats of docs/product.md §9', () => {
  it('formats date-times as YYYY/MM/DD HH:mm in Japan time', () => {
    expect(new Date('2026-01-04T22:03:00Z').getHours()).toBe(17);
    expect(formatDateTime(new Date('2026-01-04T22:03:00Z'))).toBe('2026/01/05 07:03');
    expect(formatDateTime('2026-11-23T14:59:59.999Z')).toBe('2026/11/23 23:59');
    // A datetime-local field's value (no zone) is Japan time already, as the server reads it.
    expect(formatDateTime('2026-12-01T09:30')).toBe('2026/12/01 09:30');
    expect(formatDateTime(null)).toBe('');
    expect(formatDateTime('nonsense')).toBe('');
  });
  it('fills datetime-local fields in Japan time, as the server reads a time without zone', () => {
    expect(japanInputValue(new Date('2026-01-04T22:03:30Z'))).toBe('2026-01-05T07:03');
  });
  it('formats birthdays as YYYY年MM月DD日', () => {
    expect(formatBirthday('1985-09-30')).toBe('1985年09月30日');
    expect(formatBirthday('')).toBe('');
  });
});

describe('fileStamp', () => {
  it('is Japan time whatever the zone of the PC', () => {
    expect(fileStamp(new Date('2026-11-24T22:49:00Z'))).toBe('202611250749');
  });
});
