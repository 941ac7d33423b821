import { describe, expect, it } from 'vitest';
import { carMapList, FLEET_OFFLINE_MINUTES, fleetStateLabels, fleetStateOf, fleetStates } from './fleet-map.js';

const now = new Date('2026-11-25T03:00:00Z');
const state = {
  lat: 35.68,
  lng: 139.76,
  engine_running: 'off',
  engine_line: 'connected',
  connection: 'connected',
  last_seen_at: '2026-11-25T02:59:00Z',
};
const tokyo = { lat_min: 35.6, lat_max: 35.8, lng_min: 139.6, lng_max: 139.9 };
const label = (...args: Parameters<typeof fleetStateOf>) => fleetStateLabels[fleetStateOf(...args)];

describe('fleet map states', () => {
  it('has the five Japanese labels', () => {
    expect(fleetStates.map((s) => fleetStateLabels[s])).toEqual(['通信途絶', 'エリア外', '禁止中', '走行中', '停止中']);
  });
  it('judges running, stopped and prohibited engines', () => {
    expect(label(state, [], now)).toBe('停止中');
    expect(label({ ...state, engine_running: 'on' }, [], now)).toBe('走行中');
    expect(label({ ...state, engine_running: 'on', engine_line: 'disconnected' }, [], now)).toBe('禁止中');
    expect(label({ ...state, engine_running: null, engine_line: null }, [], now)).toBe('停止中');
  });
  it('calls a disconnected, silent or never-heard terminal 通信途絶 before anything else', () => {
    expect(label({ ...state, connection: 'disconnected', engine_running: 'on' }, [], now)).toBe('通信途絶');
    const silent = new Date(now.getTime() - (FLEET_OFFLINE_MINUTES * 60_000 + 1000)).toISOString();
    expect(label({ ...state, last_seen_at: silent }, [], now)).toBe('通信途絶');
    const recent = new Date(now.getTime() - (FLEET_OFFLINE_MINUTES * 60_000 - 1000)).toISOString();
    expect(label({ ...state, last_seen_at: recent }, [], now)).toBe('停止中');
    expect(label(null, [], now)).toBe('通信途絶');
  });
  it('puts エリア外 before 禁止中 and only when the vehicle has areas and lies outside all of them', () => {
    const osaka = { lat_min: 34.6, lat_max: 34.8, lng_min: 135.4, lng_max: 135.6 };
    expect(label({ ...state, engine_line: 'disconnected' }, [osaka], now)).toBe('エリア外');
    expect(label(state, [osaka, tokyo], now)).toBe('停止中');
    expect(label({ ...state, lat: null, lng: null }, [osaka], now)).toBe('停止中');
  });
  it('takes an optional company and refuses a malformed one', () => {
    expect(carMapList.request.parse({})).toEqual({});
    expect(carMapList.request.parse({ company_id: 'K001' })).toEqual({ company_id: 'K001' });
    expect(carMapList.request.safeParse({ company_id: 'a b' }).success).toBe(false);
  });
});
