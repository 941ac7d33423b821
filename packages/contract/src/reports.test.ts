import { describe, expect, it } from 'vitest';
import { presetRange, reportHourReached, reportMail, scheduledPeriod } from './reports.js';

// 2026-11-04 is a Wednesday in Japan; 00:30 JST is still the 3rd in UTC.
const wednesday = new Date('2026-11-03T15:30:00Z');

describe('presetRange', () => {
  it('counts the days in Japan time', () => {
    expect(presetRange('yesterday', wednesday)).toEqual({ from: '2026-11-03', to: '2026-11-03' });
    expect(presetRange('thisWeek', wednesday)).toEqual({ from: '2026-11-02', to: '2026-11-04' });
    expect(presetRange('thisMonth', wednesday)).toEqual({ from: '2026-11-01', to: '2026-11-04' });
    expect(presetRange('lastMonth', wednesday)).toEqual({ from: '2026-10-01', to: '2026-10-31' });
  });

  it('starts a week on Monday, also on a Sunday and across a year', () => {
    expect(presetRange('thisWeek', new Date('2026-11-08T03:00:00Z'))).toEqual({ from: '2026-11-02', to: '2026-11-08' });
    expect(presetRange('lastMonth', new Date('2027-01-01T00:00:00Z'))).toEqual({
      from: '2026-12-01',
      to: '2026-12-31',
    });
    expect(presetRange('lastMonth', new Date('2028-03-10T00:00:00Z'))).toEqual({
      from: '2028-02-01',
      to: '2028-02-29',
    });
  });
});

describe('scheduledPeriod', () => {
  it('is the previous JST day or month, keyed once per period', () => {
    expect(scheduledPeriod('daily', wednesday)).toEqual({ key: '2026-11-03', from: '2026-11-03', to: '2026-11-03' });
    expect(scheduledPeriod('monthly', wednesday)).toEqual({ key: '2026-10', from: '2026-10-01', to: '2026-10-31' });
    expect(reportMail.subject('monthly', '2026-10')).toBe('【車両別集計】2026年10月');
    expect(reportMail.subject('daily', '2026-11-03')).toBe('【車両別集計】2026/11/03');
  });

  it('waits for the report hour in Japan time', () => {
    expect(reportHourReached(new Date('2026-11-03T21:59:59Z'))).toBe(false);
    expect(reportHourReached(new Date('2026-11-03T22:00:00Z'))).toBe(true);
  });
});
