import { DeviceRecord, type DeviceRecordInput } from '@fleet/contract';
import { describe, expect, it } from 'vitest';
import { foldMotion, metresBetween } from './motion.js';

const rec = (r: DeviceRecordInput) => DeviceRecord.parse(r);
const t = (minute: number) => new Date(Date.UTC(2026, 11, 1, 0, minute)).toISOString();
const gps = (minute: number, lat: number, speed: number | null = 0) =>
  rec({ type: 'gps', time: t(minute), lat, lng: 139.76, speed });
const engine = (minute: number, running: 'on' | 'off') => rec({ type: 'engine', time: t(minute), running });

describe('metresBetween', () => {
  it('measures about 111 m per 0.001° of latitude', () => {
    expect(metresBetween({ lat: 35, lng: 139 }, { lat: 35.001, lng: 139 })).toBeCloseTo(111.2, 0);
  });
});

describe('foldMotion', () => {
  it('ignores a batch without position or engine records', () => {
    expect(foldMotion(null, [rec({ type: 'battery', time: t(0), voltage: 12 })])).toBeNull();
  });

  it('counts speed or a move of more than 200 m as movement, not drift', () => {
    let m = foldMotion(null, [gps(0, 35.68, 30)])!;
    expect(m.moved_at.toISOString()).toBe(t(0));
    m = foldMotion(m, [gps(10, 35.6815), gps(20, 35.681)])!; // ~170 m, standing
    expect(m.moved_at.toISOString()).toBe(t(0));
    m = foldMotion(m, [gps(30, 35.6825)])!; // ~280 m from where it last moved
    expect(m.moved_at.toISOString()).toBe(t(30));
    expect(m.anchor_lat).toBe(35.6825);
  });

  it('tracks standing with the engine on from engine start until it drives off or stops the engine', () => {
    let m = foldMotion(null, [engine(0, 'on'), gps(1, 35.68)])!;
    expect(m.idle_since?.toISOString()).toBe(t(0));
    m = foldMotion(m, [gps(5, 35.68, 20)])!;
    expect(m.idle_since).toBeNull();
    m = foldMotion(m, [gps(9, 35.68, 0)])!;
    expect(m.idle_since?.toISOString()).toBe(t(9));
    m = foldMotion(m, [engine(12, 'off')])!;
    expect(m.idle_since).toBeNull();
    expect(m.engine_running).toBe('off');
  });

  it('orders a batch by time and skips records older than the state', () => {
    const m = foldMotion(null, [gps(10, 35.7, 40), gps(0, 35.68, 40)])!;
    expect(m.moved_at.toISOString()).toBe(t(10));
    const late = foldMotion(m, [gps(5, 36, 80)]);
    expect(late).toBeNull();
  });
});
