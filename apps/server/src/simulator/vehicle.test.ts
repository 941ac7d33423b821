import type { DeviceRecordInput } from '@fleet/contract';
import { describe, expect, it } from 'vitest';
import { parseDeviceRecord } from '@fleet/contract';
import { distanceM } from './geo.js';
import { tokyoPlaces } from './places.js';
import { createRandom } from './random.js';
import { SimVehicle, defaultVehicleOptions } from './vehicle.js';

const T0 = Date.parse('2026-01-15T00:00:00Z');
const drive = (vehicle: SimVehicle, seconds: number) => {
  const out: DeviceRecordInput[] = [];
  for (let s = 1; s <= seconds; s++) out.push(...vehicle.step(T0 + s * 1000));
  return out;
};
const eager = { ...defaultVehicleOptions, parkSeconds: [1, 1] as const };

describe('SimVehicle', () => {
  it('drives between Tokyo places at city speeds, every record valid', () => {
    const v = new SimVehicle(tokyoPlaces, createRandom(7), eager);
    const records = [...v.boot(T0), ...drive(v, 1800)];
    for (const r of records) expect(parseDeviceRecord(r), JSON.stringify(r)).toMatchObject({ ok: true });
    const gps = records.filter((r): r is Extract<DeviceRecordInput, { type: 'gps' }> => r.type === 'gps');
    expect(gps.length).toBeGreaterThan(100);
    for (const p of gps) {
      expect(p.lat).toBeGreaterThan(35.5);
      expect(p.lat).toBeLessThan(35.8);
      expect(p.lng).toBeGreaterThan(139.5);
      expect(p.lng).toBeLessThan(139.9);
    }
    for (let i = 1; i < gps.length; i++) {
      const seconds = (Date.parse(gps[i]!.time) - Date.parse(gps[i - 1]!.time)) / 1000;
      const kmh = (distanceM(gps[i - 1]!, gps[i]!) / seconds) * 3.6;
      expect(kmh).toBeLessThan(80);
    }
    expect(records.some((r) => r.type === 'engine' && r.running === 'on')).toBe(true);
    expect(records.some((r) => r.type === 'obd2')).toBe(true);
    expect(records.some((r) => r.type === 'battery')).toBe(true);
    expect(records.some((r) => r.type === 'sensor')).toBe(true);
  });

  it('cannot start while engine start is prohibited', () => {
    const v = new SimVehicle(tokyoPlaces, createRandom(3), { ...eager, faultChance: 0 });
    v.setEngineLine(1);
    const records = drive(v, 600);
    expect(records.some((r) => r.type === 'engine' && r.running === 'on')).toBe(false);
    expect(v.mode).toBe('parked');
    v.setEngineLine(0);
    expect(drive(v, 400).some((r) => r.type === 'engine' && r.running === 'on')).toBe(true);
  });

  it('reports a fault and its recovery', () => {
    const v = new SimVehicle(tokyoPlaces, createRandom(11), { ...eager, faultChance: 0.01 });
    const errors = drive(v, 1200).filter((r) => r.type === 'error');
    expect(errors.some((e) => e.type === 'error' && e.status_code !== 0)).toBe(true);
    expect(errors.some((e) => e.type === 'error' && e.status_code === 0)).toBe(true);
  });
});
