import { describe, expect, it } from 'vitest';
import { otherReadingsText, readingHeader, readingValue } from './log-readings.js';

describe('log readings catalogue', () => {
  it('names the known keys with their units', () => {
    expect(readingHeader('obd2', 'rpm')).toBe('エンジン回転数 (rpm)');
    expect(readingHeader('sensor', 'temperature_c')).toBe('温度 (℃)');
    expect(readingHeader('sensor', 'charging')).toBe('充電');
    expect(readingHeader('obd2', 'maf')).toBe('maf');
  });
  it('writes the keys without a column as labelled pairs, never JSON of the whole object', () => {
    expect(otherReadingsText('sensor', { temperature_c: 20, altitude_m: 40.2, charging: false, door: 'open' })).toBe(
      '高度: 40.2 m、充電: OFF、door: open',
    );
    expect(otherReadingsText('obd2', { rpm: 800 })).toBe('');
    expect(otherReadingsText('obd2', null)).toBe('');
  });
  it('reads values as a person does', () => {
    expect(readingValue(true)).toBe('ON');
    expect(readingValue(null)).toBe('');
    expect(readingValue({ a: 1 })).toBe('{"a":1}');
  });
});
