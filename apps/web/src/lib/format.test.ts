import { describe, expect, it } from 'vitest';
import { fileStamp, formatBirthday, formatDateTime } from './format';

describe('formats of SPEC.md §9', () => {
  it('formats date-times as YYYY/MM/DD HH:mm', () => {
    expect(formatDateTime(new Date(2026, 0, 5, 7, 3))).toBe('2026/01/05 07:03');
    expect(formatDateTime(null)).toBe('');
    expect(formatDateTime('nonsense')).toBe('');
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
