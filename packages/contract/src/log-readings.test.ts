import { describe, expect, it } from 'vitest';
import { otherReadingsText, readingCell, readingHeader, readingValue, withUnit } from './log-readings.js';

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
    expect(otherReadingsText('obd2', { coolant_temp: 88.04, maf: 3 })).toBe('maf: 3');
    expect(otherReadingsText('sensor', { internal_battery_v: 4.1 })).toBe('内蔵電池電圧: 4.10 V');
    expect(otherReadingsText('obd2', { rpm: 800 })).toBe('');
    expect(otherReadingsText('obd2', null)).toBe('');
  });
  it('reads values as a person does', () => {
    expect(readingValue(true)).toBe('ON');
    expect(readingValue(null)).toBe('');
    expect(readingValue({ a: 1 })).toBe('{"a":1}');
  });
  it('writes ℃ one way in tables and charts: a tenth, closed up', () => {
    expect(readingCell('sensor', 'temperature_c', 23.456)).toBe('23.5');
    expect(readingCell('obd2', 'coolant_temp', 88)).toBe('88.0');
    expect(withUnit(23.456, '℃')).toBe('23.5℃');
    expect(withUnit(45.4, '%')).toBe('45%');
    expect(withUnit(12.6, 'V')).toBe('12.60 V');
    expect(readingCell('sensor', 'charging', true)).toBe('ON');
    expect(readingCell('obd2', 'maf', 3.14159)).toBe('3.14159');
  });
});
