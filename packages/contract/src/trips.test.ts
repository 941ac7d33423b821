import { describe, expect, it } from 'vitest';
import {
  CarTripsRequest,
  FleetSummaryRequest,
  ReportExportQuery,
  TripSettings,
  fieldErrors,
  jstDayOf,
  jstDayRange,
  shiftJstDay,
  tripMessages,
} from './index.js';

const errors = (r: { success: boolean; error?: unknown }) =>
  r.success ? {} : fieldErrors(r.error as Parameters<typeof fieldErrors>[0]);

describe('trip ranges', () => {
  it('reads a JST day as the whole day', () => {
    const r = CarTripsRequest.parse({ car_data_id: 'IMEI1', from: '2026-11-23', to: '2026-11-23' });
    expect(r.from).toBe('2026-11-22T15:00:00.000Z');
    expect(r.to).toBe('2026-11-23T14:59:59.999Z');
  });

  it('refuses a range the wrong way round, a missing bound and one longer than 31 days, in Japanese', () => {
    expect(errors(CarTripsRequest.safeParse({ car_data_id: 'x', from: '2026-11-23', to: '2026-11-22' }))).toEqual({
      from: tripMessages.rangeOrder,
    });
    expect(errors(CarTripsRequest.safeParse({ car_data_id: 'x', from: '', to: '2026-11-22' }))).toEqual({
      from: tripMessages.rangeRequired,
    });
    expect(errors(CarTripsRequest.safeParse({ car_data_id: 'x', from: '2026-01-01', to: '2026-12-31' }))).toEqual({
      to: tripMessages.tripsRangeTooLong,
    });
    expect(CarTripsRequest.safeParse({ car_data_id: 'x', from: '2026-01-01', to: '2026-01-31' }).success).toBe(true);
    expect(errors(FleetSummaryRequest.safeParse({ from: '2026-01-01', to: '2026-12-31' }))).toEqual({
      to: tripMessages.summaryRangeTooLong,
    });
  });

  it('bounds the settings', () => {
    expect(
      TripSettings.safeParse({ stop_min_s: 300, stop_radius_m: 100, stop_speed_kmh: 5, trip_min_m: 500 }).success,
    ).toBe(true);
    const bad = errors(
      TripSettings.safeParse({ stop_min_s: 5, stop_radius_m: 100, stop_speed_kmh: 5, trip_min_m: 500 }),
    );
    expect(bad.stop_min_s).toMatch(/60〜7200秒/);
  });

  it('reports: daily needs a vehicle and a day, summary a range', () => {
    expect(errors(ReportExportQuery.safeParse({ kind: 'daily', format: 'pdf' }))).toMatchObject({
      car_data_id: expect.any(String),
      date: expect.any(String),
    });
    expect(
      ReportExportQuery.safeParse({ kind: 'daily', format: 'xlsx', car_data_id: 'a', date: '2026-02-30' }).success,
    ).toBe(false);
    expect(
      errors(ReportExportQuery.safeParse({ kind: 'summary', format: 'csv', from: '2026-11-02', to: '2026-11-01' })),
    ).toEqual({ from: tripMessages.rangeOrder });
  });

  it('days in Japan time', () => {
    expect(jstDayRange('2026-11-23')).toEqual({ from: '2026-11-22T15:00:00.000Z', to: '2026-11-23T14:59:59.999Z' });
    expect(jstDayOf('2026-11-22T15:00:00.000Z')).toBe('2026-11-23');
    expect(shiftJstDay('2026-03-01', -1)).toBe('2026-02-28');
  });
});
