import { carMapList, FleetCar, LiveState, timestamp } from '@fleet/contract';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { liveState } from '../testing/live-state';
import { fastParser } from './fast-parse';

const state = liveState('I000001', 35.68, {
  car_id: 'C000001',
  lng: 139.76,
  speed: 40,
  engine_running: 'on',
  battery_voltage: 12.5,
});
const car = {
  car_id: 'C000001',
  car_number: '品川 300 あ 1',
  company_id: 'CO001',
  company_name: '東京',
  user_name: null,
  car_data_id: 'I000001',
  state: (({ car_id: _, ...s }) => s)(state),
  areas: [{ lat_min: 35, lat_max: 36, lng_min: 139, lng_max: 140 }],
};

/** The fast path must answer exactly as the contract's schema: same success, same data. */
function agrees(schema: z.ZodType, input: unknown) {
  const fast = fastParser(schema)(structuredClone(input));
  const zod = schema.safeParse(structuredClone(input));
  expect(fast.success).toBe(zod.success);
  if (fast.success && zod.success) expect(fast.data).toEqual(zod.data);
}

describe('fastParser', () => {
  it('has a fast path for the live state and the fleet map answer', () => {
    expect(fastParser(LiveState).fast).toBe(true);
    expect(fastParser(FleetCar).fast).toBe(true);
    expect(fastParser(carMapList.response).fast).toBe(true);
  });

  it('returns a plain, canonical row as it is, without the schema', () => {
    const input = structuredClone(state);
    const r = fastParser(LiveState)(input);
    expect(r.success && r.data).toBe(input);
  });

  it('answers as the schema for every kind of bad or unusual field', () => {
    const variants: Record<string, unknown>[] = [
      state,
      { ...state, lat: null },
      { ...state, lat: '35.6' },
      { ...state, lat: Number.NaN },
      { ...state, car_id: undefined },
      { ...state, car_data_id: null },
      { ...state, recorded_at: null },
      { ...state, last_seen_at: null },
      { ...state, last_seen_at: 'yesterday' },
      // not canonical: the schema normalises it, the fast path hands it over
      { ...state, last_seen_at: '2026-11-25T11:59:00+09:00' },
      { ...state, extra: 1 },
    ];
    for (const v of variants) agrees(LiveState, v);
    const { lng: _, ...noLng } = state;
    agrees(LiveState, noLng);
    agrees(LiveState, null);
    agrees(LiveState, [state]);
    agrees(FleetCar, car);
    agrees(FleetCar, { ...car, state: null });
    agrees(FleetCar, { ...car, areas: [{ lat_min: 35, lat_max: 36, lng_min: 139 }] });
    agrees(FleetCar, { ...car, areas: {} });
    agrees(carMapList.response, { list: [car, { ...car, car_id: 'C000002' }] });
    agrees(carMapList.response, { list: [car, { ...car, state: { ...car.state, lat: 'x' } }] });
    // the non-canonical time comes back normalised, as the schema gives it
    const r = fastParser(LiveState)({ ...state, last_seen_at: '2026-11-25T11:59:00+09:00' });
    expect(r.success && r.data.last_seen_at).toBe('2026-11-25T02:59:00.000Z');
  });

  it('leaves schemas with checks, transforms or unions to zod', () => {
    const checked = z.object({ id: z.string().min(3) });
    expect(fastParser(checked).fast).toBe(false);
    expect(fastParser(checked)({ id: 'ab' }).success).toBe(false);
    expect(fastParser(z.object({ n: z.union([z.string(), z.number()]) })).fast).toBe(false);
    expect(fastParser(z.object({ t: timestamp() })).fast).toBe(true);
    expect(fastParser(z.string().transform((s) => s.length)).fast).toBe(false);
    expect(fastParser(z.string().transform((s) => s.length))('abc')).toEqual({ success: true, data: 3 });
  });
});
