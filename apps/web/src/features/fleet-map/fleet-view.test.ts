import type { FleetCar, TelemetryState } from '@fleet/contract';
import { describe, expect, it } from 'vitest';
import { liveState } from '../../testing/live-state';
import { filterItems, judgeItems, toItems } from './fleet-view';
import { fleetMapTexts } from './texts';

const now = new Date('2026-11-25T03:00:00.000Z');
/** A connected, engine-off state at `lat` reported a minute before `now` (the shared live-state fixture). */
const at = (lat: number, o: Partial<TelemetryState> = {}): TelemetryState => liveState(o.car_data_id ?? 'x', lat, o);
const cars: FleetCar[] = [1, 2, 3].map((n) => ({
  car_id: `C00000${n}`,
  car_number: `品川 ${n}`,
  company_id: 'CO001',
  company_name: '東京',
  user_name: null,
  car_data_id: `I00000${n}`,
  state: at(35 + n / 10, { car_data_id: `I00000${n}` }),
  areas: [],
}));

describe('judgeItems', () => {
  it('judges every vehicle the first time, as toItems', () => {
    const first = judgeItems(null, cars, {}, now);
    expect(first.judged).toBe(3);
    expect(first.items).toEqual(toItems(cars, {}, now));
    expect(first.items.map((i) => i.state)).toEqual(['stopped', 'stopped', 'stopped']);
  });

  it('judges again only the vehicles whose newest state changed', () => {
    const pushed: Record<string, TelemetryState> = {};
    const first = judgeItems(null, cars, pushed, now);
    pushed.I000002 = at(35.5, {
      car_data_id: 'I000002',
      engine_running: 'on',
      last_seen_at: '2026-11-25T02:59:30.000Z',
    });
    const second = judgeItems(first, cars, pushed, now);
    expect(second.judged).toBe(1);
    expect(second.items[0]).toBe(first.items[0]);
    expect(second.items[2]).toBe(first.items[2]);
    expect(second.items[1]).toMatchObject({ lat: 35.5, state: 'moving' });
    expect(second.items).toEqual(toItems(cars, pushed, now));
  });

  it('gives the previous round back when nothing changed, so nothing downstream recomputes', () => {
    const pushed: Record<string, TelemetryState> = { I000001: at(35.9, { car_data_id: 'I000001' }) };
    const first = judgeItems(null, cars, pushed, now);
    expect(judgeItems(first, cars, pushed, now)).toBe(first);
    // an older push than the fetched state changes nothing either
    pushed.I000003 = at(36, { car_data_id: 'I000003', last_seen_at: '2026-11-25T02:00:00.000Z' });
    expect(judgeItems(first, cars, pushed, now)).toBe(first);
  });

  it('judges everything again for new vehicles or a new minute', () => {
    const first = judgeItems(null, cars, {}, now);
    expect(judgeItems(first, [...cars], {}, now).judged).toBe(3);
    const later = judgeItems(first, cars, {}, new Date(now.getTime() + 31 * 60_000));
    expect(later.judged).toBe(3);
    expect(later.items.map((i) => i.state)).toEqual(['offline', 'offline', 'offline']);
  });
});

describe('filterItems', () => {
  it('keeps the vehicles with a position matching the text and the states', () => {
    const items = toItems(cars, { I000003: at(35.3, { car_data_id: 'I000003', engine_running: 'on' }) }, now);
    expect(filterItems(items, { text: '', states: ['moving'] }).map((i) => i.car.car_id)).toEqual(['C000003']);
    expect(filterItems(items, { text: '品川 2', states: [] }).map((i) => i.car.car_id)).toEqual(['C000002']);
  });
});

describe('the counts of the filter bar', () => {
  it('groups digits as ja-JP does', () => {
    expect(fleetMapTexts.shown(9, 999)).toBe('表示 9台 / 全999台');
    expect(fleetMapTexts.shown(1000, 1234567)).toBe('表示 1,000台 / 全1,234,567台');
    expect(fleetMapTexts.noPosition(10000)).toBe(
      `位置情報のない車両 ${(10000).toLocaleString('ja-JP')}台は地図に表示されません。`,
    );
  });
});
