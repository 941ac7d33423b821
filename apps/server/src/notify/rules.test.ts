import { defaultNotifySettings, DeviceRecord, type DeviceRecordInput } from '@fleet/contract';
import { describe, expect, it } from 'vitest';
import type { SweepVehicle } from './notification.repository.js';
import { findSweepEvents, formatElapsed, IDLE_REPORT_WINDOW_MS } from './sweep-rules.js';
import { findBatchEvents, inTimeOrder } from './telemetry-rules.js';

const rec = (r: DeviceRecordInput) => DeviceRecord.parse(r);
const at = (s: number) => new Date(Date.UTC(2026, 11, 1, 0, 0, s)).toISOString();

describe('inTimeOrder', () => {
  it('puts records oldest first, keeps the order of equal times, and leaves a batch in order as it is', () => {
    const batch = [
      { time: at(3), n: 1 },
      { time: at(1), n: 2 },
      { time: '2026-12-01T09:00:03+09:00', n: 3 }, // the same instant as at(3), written in Japan time
      { time: at(1), n: 4 },
    ];
    expect(inTimeOrder(batch).records.map((r) => r.n)).toEqual([2, 4, 1, 3]);
    const inOrder = [batch[1]!, batch[3]!, batch[0]!];
    expect(inTimeOrder(inOrder).records).toBe(inOrder);
    // Times already read (the gateway's) are taken as they are, not read again.
    const given = [30, 10, 30, 10];
    expect(inTimeOrder(batch, given)).toEqual({
      records: [batch[1], batch[3], batch[0], batch[2]],
      times: [10, 10, 30, 30],
    });
    expect(inTimeOrder(batch, [4, 3, 2, 1]).records.map((r) => r.n)).toEqual([4, 3, 2, 1]);
  });

  it('gives each record its time at the same place (inTimeOrder), and findings judge the same from it', () => {
    const order = inTimeOrder([
      { time: at(3), n: 1 },
      { time: '2026-12-01T09:00:01+09:00', n: 2 },
    ]);
    expect(order.records.map((r) => r.n)).toEqual([2, 1]);
    expect(order.times).toEqual([Date.parse(at(1)), Date.parse(at(3))]);
    const batch = [
      rec({ type: 'error', time: at(3), error_type: 'sensor', status_code: 1000 }),
      rec({ type: 'gps', time: at(1), lat: 35, lng: 139 }),
    ];
    const ctx = { areas: null, lastPosition: null };
    const fromOrder = findBatchEvents(inTimeOrder(batch), ctx);
    expect(fromOrder.fixed).toEqual(findBatchEvents(batch, ctx).fixed);
    expect(fromOrder.fixed.sensor_error).toMatchObject({ at: new Date(at(3)), position: { lat: 35, lng: 139 } });
  });
});

describe('findBatchEvents', () => {
  it('reports the first record of each item, with the last position known before it', () => {
    const found = findBatchEvents(
      [
        rec({ type: 'error', time: at(3), error_type: 'sensor', status_code: 1000 }),
        rec({ type: 'gps', time: at(1), lat: 35, lng: 139 }),
        rec({ type: 'error', time: at(2), error_type: 'sensor', status_code: 1002 }),
      ],
      { areas: null, lastPosition: { lat: 1, lng: 2 } },
    );
    expect(found.fixed.sensor_error).toMatchObject({
      at: new Date(at(2)),
      position: { lat: 35, lng: 139 },
      detail: { status_code: 1002 },
    });
    expect(found.fixed.warn_area).toBeUndefined();
  });

  it('falls back to the latest known position for a batch without GPS', () => {
    const found = findBatchEvents([rec({ type: 'connection', time: at(0), state: 'disconnected' })], {
      areas: null,
      lastPosition: { lat: 1, lng: 2 },
    });
    expect(found.fixed.connect_error?.position).toEqual({ lat: 1, lng: 2 });
  });

  it('judges vibration strictly over each threshold', () => {
    const found = findBatchEvents([rec({ type: 'sensor', time: at(0), vibration: 2 })], {
      areas: null,
      lastPosition: null,
    });
    expect(found.vibration(2)).toBeUndefined();
    expect(found.vibration(1.9)?.detail).toEqual({ vibration: 2, threshold: 1.9 });
  });
});

describe('formatElapsed', () => {
  it('says minutes, hours and days in Japanese', () => {
    expect(formatElapsed(45 * 60_000)).toBe('45分');
    expect(formatElapsed(60 * 60_000)).toBe('1時間');
    expect(formatElapsed(312 * 60_000)).toBe('5時間12分');
    expect(formatElapsed(3 * 86_400_000)).toBe('3日');
    expect(formatElapsed(51 * 3600_000)).toBe('2日3時間');
  });
});

describe('findSweepEvents', () => {
  const now = new Date('2026-12-10T00:00:00Z');
  const vehicle = (v: Partial<SweepVehicle>): SweepVehicle => ({
    car: {
      car_id: 'c',
      car_number: '',
      company_id: null,
      car_data_id: 'i',
      lat_min: null,
      lat_max: null,
      lng_min: null,
      lng_max: null,
    },
    last_seen_at: now,
    position: null,
    moved_at: null,
    engine_running: null,
    idle_since: null,
    ...v,
  });
  const items = (on: Partial<Record<'device_lost' | 'car_negrected' | 'stop_time_over', number>>) => {
    const s = defaultNotifySettings();
    for (const [k, p] of Object.entries(on)) s[k as 'device_lost'] = { enable: true, param: p };
    return s;
  };

  it('reports nothing for items that are off', () => {
    expect(findSweepEvents(vehicle({ last_seen_at: new Date(0), moved_at: new Date(0) }), items({}), now)).toEqual([]);
  });

  it('does not judge idling on a terminal that stopped reporting', () => {
    const idle = { engine_running: 'on', idle_since: new Date(now.getTime() - 3600_000) };
    expect(findSweepEvents(vehicle(idle), items({ stop_time_over: 30 }), now).map((f) => f.item)).toEqual([
      'stop_time_over',
    ]);
    const silent = vehicle({ ...idle, last_seen_at: new Date(now.getTime() - IDLE_REPORT_WINDOW_MS - 1) });
    expect(findSweepEvents(silent, items({ stop_time_over: 30 }), now)).toEqual([]);
  });
});
