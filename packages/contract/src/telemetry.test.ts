import { describe, expect, it } from 'vitest';
import './index.js';
import { GpsLogRequest, LogExportQuery, LogRequest, parseDateBound } from './telemetry.js';

describe('parseDateBound', () => {
  it('reads a day as a whole day in Japan time', () => {
    expect(parseDateBound('2026-11-23', 'from')).toBe('2026-11-22T15:00:00.000Z');
    expect(parseDateBound('2026/11/23', 'to')).toBe('2026-11-23T14:59:59.999Z');
  });
  it('reads the console format YYYY/MM/DD HH:mm as Japan time, the end bound to the end of the minute', () => {
    expect(parseDateBound('2026/11/23 10:15', 'from')).toBe('2026-11-23T01:15:00.000Z');
    expect(parseDateBound('2026/11/23 10:15', 'to')).toBe('2026-11-23T01:15:59.999Z');
  });
  it('keeps an ISO instant with its zone', () => {
    expect(parseDateBound('2026-11-23T10:15:00Z', 'to')).toBe('2026-11-23T10:15:00.000Z');
    expect(parseDateBound('2026-11-23T10:15:00+09:00', 'from')).toBe('2026-11-23T01:15:00.000Z');
  });
  it('treats empty as no bound and refuses nonsense', () => {
    expect(parseDateBound('', 'from')).toBeNull();
    expect(parseDateBound(null, 'to')).toBeNull();
    expect(parseDateBound('yesterday', 'from')).toBeUndefined();
    expect(parseDateBound('2026-02-30', 'from')).toBeUndefined();
  });
});

describe('LogRequest', () => {
  it('defaults the limit and resolves an empty range to null bounds', () => {
    expect(LogRequest.parse({ car_data_id: '358409100000001' })).toEqual({
      car_data_id: '358409100000001',
      from: null,
      to: null,
      limit: 1000,
    });
  });
  it('accepts numeric strings from the old console', () => {
    expect(LogRequest.parse({ car_data_id: 'x1', from: '', to: '', limit: '50', before_id: '9' })).toMatchObject({
      limit: 50,
      before_id: 9,
    });
  });
  it('needs both bounds or none (docs/product.md §5)', () => {
    const r = LogRequest.safeParse({ car_data_id: 'x1', from: '2026-11-23' });
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]).toMatchObject({ path: ['to'], message: '開始日時と終了日時の両方を入力してください' });
  });
  it('refuses a start after the end, a limit over 10,000 and a missing id', () => {
    expect(LogRequest.safeParse({ car_data_id: 'x1', from: '2026-11-24', to: '2026-11-23' }).success).toBe(false);
    expect(LogRequest.safeParse({ car_data_id: 'x1', limit: 10_001 }).success).toBe(false);
    expect(LogRequest.safeParse({}).error?.issues[0]?.message).toBe('必須項目です');
  });
  it("takes the cursor row's time as an instant with its zone, only beside before_id", () => {
    expect(
      LogRequest.parse({ car_data_id: 'x1', before_id: 9, before_at: '2026-11-23T09:15:00.123+09:00' }),
    ).toMatchObject({
      before_id: 9,
      before_at: '2026-11-23T00:15:00.123Z',
    });
    expect(LogRequest.parse({ car_data_id: 'x1', before_id: 9, before_at: '' }).before_at).toBeUndefined();
    for (const before_at of ['2026-11-23', '2026-11-23T09:15:00', '2026-02-30T00:00:00Z', 'yesterday', 1])
      expect(LogRequest.safeParse({ car_data_id: 'x1', before_id: 9, before_at }).error?.issues[0]).toMatchObject({
        path: ['before_at'],
        message: '入力内容が不正です',
      });
    expect(
      LogRequest.safeParse({ car_data_id: 'x1', before_at: '2026-11-23T00:00:00Z' }).error?.issues[0],
    ).toMatchObject({
      path: ['before_at'],
      message: '入力内容が不正です',
    });
  });
});

describe('GpsLogRequest and LogExportQuery', () => {
  it('bounds max_points', () => {
    expect(GpsLogRequest.parse({ car_data_id: 'x1' }).max_points).toBe(5000);
    expect(GpsLogRequest.safeParse({ car_data_id: 'x1', max_points: 1 }).success).toBe(false);
  });
  it('knows the log kinds', () => {
    expect(LogExportQuery.safeParse({ kind: 'gps', car_data_id: 'x1' }).success).toBe(true);
    expect(LogExportQuery.safeParse({ kind: 'passwords', car_data_id: 'x1' }).success).toBe(false);
  });
});
