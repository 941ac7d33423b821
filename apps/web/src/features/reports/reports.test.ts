import type { FleetSummaryRow } from '@fleet/contract';
import { describe, expect, it } from 'vitest';
import { reportFileName } from './api';
import { clock } from './daily-report';
import { sortRows } from './fleet-summary';

const row = (car_number: string, distance_m: number, car_data_id: string | null = null): FleetSummaryRow => ({
  car_id: car_number,
  car_number,
  car_data_id,
  distance_m,
  driving_s: 0,
  trips: 0,
  stops: 0,
  max_speed_kmh: 0,
});

describe('the report screens', () => {
  it('sort the summary by a number or a text column, either way', () => {
    const rows = [row('品川 300 あ 11', 5), row('横浜 301 い 14', 12.5), row('足立 302 う 17', 0)];
    expect(sortRows(rows, 'distance_m', 'desc').map((r) => r.distance_m)).toEqual([12.5, 5, 0]);
    expect(sortRows(rows, 'distance_m', 'asc').map((r) => r.distance_m)).toEqual([0, 5, 12.5]);
    // A vehicle without a terminal sorts as an empty text, first.
    const withNull = [row('b', 1, '2'), row('a', 1, null)];
    expect(sortRows(withNull, 'car_data_id', 'asc').map((r) => r.car_data_id)).toEqual([null, '2']);
  });

  it('show a time of the day as HH:mm in Japan, with the date when it is another day, and 停車中 for none', () => {
    expect(clock('2026-11-19T23:30:00Z', '2026-11-20')).toBe('08:30');
    expect(clock('2026-11-20T15:10:00Z', '2026-11-20')).toBe('11/21 00:10');
    expect(clock(null, '2026-11-20')).toBe('停車中');
  });

  it('name the files as the server does', () => {
    expect(reportFileName({ kind: 'daily', format: 'pdf', car_data_id: '358409100000001', date: '2026-11-20' })).toBe(
      'daily_report_358409100000001_2026-11-20.pdf',
    );
    expect(reportFileName({ kind: 'summary', format: 'xlsx', from: '2026-11-01', to: '2026-11-30' })).toBe(
      'fleet_summary_2026-11-01_2026-11-30.xlsx',
    );
  });
});
