import { DeviceRecord } from '@fleet/contract';
import { describe, expect, it } from 'vitest';
import { foldLatest } from './latest-patch.js';

const rec = (r: unknown) => DeviceRecord.parse(r);

describe('foldLatest', () => {
  it('takes the newest value of each group, whatever the order in the batch', () => {
    const patch = foldLatest([
      rec({ type: 'gps', time: '2026-01-15T03:00:10Z', lat: 35.2, lng: 139.2, speed: 20 }),
      rec({ type: 'gps', time: '2026-01-15T03:00:05Z', lat: 35.1, lng: 139.1 }),
      rec({ type: 'engine', time: '2026-01-15T03:00:01Z', running: 'on' }),
      rec({ type: 'error', time: '2026-01-15T03:00:02Z', error_type: 'gps', status_code: 1002 }),
      rec({ type: 'battery', time: '2026-01-15T03:00:03Z', percentage: 50 }),
    ]);
    expect(patch).toEqual({
      recorded_at: '2026-01-15T03:00:10Z',
      position: { at: '2026-01-15T03:00:10Z', value: { lat: 35.2, lng: 139.2, speed: 20, heading: null } },
      engine_running: { at: '2026-01-15T03:00:01Z', value: 'on' },
      device_state: { at: '2026-01-15T03:00:02Z', value: 1002 },
      battery: { at: '2026-01-15T03:00:03Z', value: { voltage: null, percentage: 50 } },
    });
  });

  it('lets the later record win a tie and a command result move the engine line', () => {
    const patch = foldLatest(
      [
        rec({ type: 'connection', time: '2026-01-15T03:00:00Z', state: 'disconnected' }),
        rec({ type: 'connection', time: '2026-01-15T03:00:00Z', state: 'connected' }),
        rec({ type: 'engine', time: '2026-01-15T03:00:00Z', engine_line: 'connected' }),
      ],
      [{ time: '2026-01-15T03:00:04Z', engine_line: 'disconnected' }],
    );
    expect(patch.connection?.value).toBe('connected');
    expect(patch.engine_line).toEqual({ at: '2026-01-15T03:00:04Z', value: 'disconnected' });
    expect(patch.recorded_at).toBe('2026-01-15T03:00:04Z');
  });

  it("takes the times it is given (the gateway read them once) as each record's time", () => {
    const records = [
      rec({ type: 'gps', time: '2026-01-15T03:00:10Z', lat: 35.2, lng: 139.2 }),
      rec({ type: 'gps', time: '2026-01-15T03:00:05Z', lat: 35.1, lng: 139.1 }),
    ];
    const read = records.map((r) => Date.parse(r.time));
    expect(foldLatest(records, [], read)).toEqual(foldLatest(records));
    // Given times decide, not the text: here the second record is said to be the newer.
    expect(foldLatest(records, [], [read[1]!, read[0]!]).position?.value.lat).toBe(35.1);
  });

  it('is empty for a poll', () => {
    expect(foldLatest([])).toEqual({ recorded_at: null });
  });
});
