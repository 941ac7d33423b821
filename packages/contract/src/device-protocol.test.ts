import { describe, expect, it } from 'vitest';
import './index.js';
import { DeviceBatch, MAX_RECORDS_PER_BATCH, parseDeviceRecord } from './device-protocol.js';

const time = '2026-11-23T10:00:00+09:00';

describe('parseDeviceRecord', () => {
  it.each([
    { type: 'gps', time, lat: 35.68, lng: 139.76, speed: 42.5, heading: 90, satellites: 9, accuracy: 4 },
    { type: 'gps', time: '2026-11-23T01:00:00.123Z', lat: 35.68, lng: 139.76 },
    { type: 'engine', time, running: 'on' },
    { type: 'engine', time, engine_line: 'disconnected' },
    { type: 'connection', time, state: 'connected' },
    { type: 'battery', time, voltage: 12.6, percentage: 88 },
    { type: 'sensor', time, vibration: 0.4, readings: { temperature_c: 21 } },
    { type: 'obd2', time, pids: { rpm: 850, coolant_temp: 88 } },
    { type: 'error', time, error_type: 'sensor', status_code: 1002, detail: '加速度センサー応答なし' },
    { type: 'command_result', time, command_id: 12, success: true },
  ])('accepts a valid $type record', (record) => {
    expect(parseDeviceRecord(record)).toMatchObject({ ok: true, record: { type: record.type } });
  });

  it.each([
    [{ type: 'gps', time, lat: 91, lng: 139 }, '緯度'],
    [{ type: 'gps', time: '2026-11-23 10:00', lat: 35, lng: 139 }, 'time'],
    [{ type: 'gps', time: '2026-11-23T10:00:00', lat: 35, lng: 139 }, 'time'],
    [{ type: 'teleport', time }, 'type'],
    [{ type: 'engine', time, running: 'maybe' }, 'running'],
    [{ type: 'engine', time }, 'running または engine_line'],
    [{ type: 'battery', time }, 'voltage または percentage'],
    [{ type: 'error', time, error_type: 'brakes', status_code: 0 }, 'error_type'],
    [{ type: 'error', time, error_type: 'gps', status_code: 42 }, 'status_code'],
    [{ type: 'obd2', time, pids: 'rpm=800' }, 'pids'],
    [{ type: 'obd2', time, pids: { blob: 'x'.repeat(5000) } }, 'pids'],
    [{ type: 'command_result', time, command_id: -1, success: true }, 'command_id'],
    ['not an object', 'type'],
  ])('rejects %j with a Japanese reason naming %s', (record, needle) => {
    const result = parseDeviceRecord(record);
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.reason).toContain(needle);
      expect(result.reason).toMatch(/[ぁ-んァ-ン一-龥]/);
    }
  });
});

describe('DeviceBatch', () => {
  it('needs a non-negative integer seq and an array of records', () => {
    expect(DeviceBatch.safeParse({ seq: 1, records: [] }).success).toBe(true);
    expect(DeviceBatch.safeParse({ seq: -1, records: [] }).success).toBe(false);
    expect(DeviceBatch.safeParse({ seq: 1.5, records: [] }).success).toBe(false);
    expect(DeviceBatch.safeParse({ seq: 1, records: {} }).success).toBe(false);
    expect(DeviceBatch.safeParse({ seq: 1, records: new Array(MAX_RECORDS_PER_BATCH + 1).fill({}) }).success).toBe(
      false,
    );
  });
});
