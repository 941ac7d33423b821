import { deviceProtocolMessages as msg, parseDeviceRecord } from '@fleet/contract';
import { describe, expect, it } from 'vitest';
import { findUnstorableInput } from '../http/input-guard.js';
import { RECORD_KIND, recordSeq, sortRecords } from './ingest.service.js';

const now = new Date('2026-11-26T10:00:00Z');
const gps = (time: string, extra: Record<string, unknown> = {}) => ({
  type: 'gps',
  time,
  lat: 35.6,
  lng: 139.7,
  ...extra,
});

/** Each record alone, as the gateway checked them before a batch could be validated in one pass. */
function oneByOne(records: unknown[]) {
  return records.map((input, index) => {
    const unstorable = findUnstorableInput(input);
    if (unstorable !== undefined) return { index, reason: `${unstorable}: ${msg.unstorable}` };
    const parsed = parseDeviceRecord(input);
    return parsed.ok
      ? { index, record: parsed.record, time: Date.parse(parsed.record.time) }
      : { index, reason: parsed.reason };
  });
}

describe('sortRecords', () => {
  it('keeps a valid batch whole, in order, times in UTC as toISOString writes them', () => {
    const records = [
      gps('2026-11-26T09:00:00.000Z', { speed: 40, unknown: 'dropped' }),
      gps('2026-11-26T18:00:01+09:00'),
      gps('2026-11-26T09:00:02Z'),
      gps('2026-11-26T09:00:03.5Z'),
      { type: 'battery', time: '2026-11-26T09:00:04.123456Z', voltage: 12.4 },
    ];
    const { valid, rejected } = sortRecords(records, now);
    expect(rejected).toEqual([]);
    expect(valid.map((v) => v.index)).toEqual([0, 1, 2, 3, 4]);
    expect(valid.map((v) => v.record.time)).toEqual([
      '2026-11-26T09:00:00.000Z',
      '2026-11-26T09:00:01.000Z',
      '2026-11-26T09:00:02.000Z',
      '2026-11-26T09:00:03.500Z',
      '2026-11-26T09:00:04.123Z',
    ]);
    // Each time read once, for the latest state and the judgement after it.
    expect(valid.map((v) => v.time)).toEqual(valid.map((v) => Date.parse(v.record.time)));
    expect(valid[0]!.record).toEqual({
      type: 'gps',
      time: '2026-11-26T09:00:00.000Z',
      lat: 35.6,
      lng: 139.7,
      speed: 40,
    });
    // The input is left as it came.
    expect(records[1]!.time).toBe('2026-11-26T18:00:01+09:00');
  });

  it('names each bad record’s first problem exactly as checking it alone does', () => {
    const records: unknown[] = [
      gps('2026-11-26T09:00:00.000Z'),
      gps('2026-11-26T09:00:01.000Z', { lat: 91 }),
      { type: 'sensor', time: '2026-11-26T09:00:02.000Z', readings: { a: 'x\u0000' } },
      gps('2026-11-26T09:00:03.000Z', { speed: 1e-300 }),
      { type: 'nope', time: '2026-11-26T09:00:04.000Z' },
      'not a record',
      gps('2026-11-26T09:00:05.000Z', { satellites: 1.5 }),
      { type: 'battery', time: '2026-11-26T09:00:06.000Z' },
      gps('2026-11-26T09:00:07'),
      gps('2026-11-26T09:00:08.000Z'),
    ];
    const { valid, rejected } = sortRecords(records, now);
    const expected = oneByOne(records);
    expect(rejected).toEqual(expected.filter((e) => 'reason' in e));
    expect(valid).toEqual(expected.filter((e) => 'record' in e));
    expect(rejected.map((r) => r.index)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(rejected[0]!.reason).toMatch(/^lat: 緯度は90以下/);
    expect(rejected[1]!.reason).toBe(`readings.a: ${msg.unstorable}`);
  });

  it('refuses times too far ahead or before 1970 in either pass', () => {
    for (const extra of [[], [{ type: 'nope' }]]) {
      const { valid, rejected } = sortRecords(
        [gps('2026-11-26T10:11:00.000Z'), gps('1969-12-31T23:59:59.000Z'), gps('2026-11-26T10:09:00.000Z'), ...extra],
        now,
      );
      expect(valid.map((v) => v.index)).toEqual([2]);
      expect(rejected.slice(0, 2)).toEqual([
        { index: 0, reason: `time: ${msg.futureTime}` },
        { index: 1, reason: `time: ${msg.pastTime}` },
      ]);
    }
  });
});

describe('recordSeq (a record stored once whatever frame carries it)', () => {
  const time = '2026-11-26T09:00:00.000Z';
  const record = (r: Record<string, unknown>) => r as unknown as Parameters<typeof recordSeq>[0];
  it('is the same for the same record whatever order its keys were written in, and differs with any value', () => {
    const a = recordSeq(record({ type: 'sensor', time, readings: { gsm_signal: 4, movement: 1 } }));
    expect(recordSeq(record({ readings: { movement: 1, gsm_signal: 4 }, time, type: 'sensor' }))).toBe(a);
    expect(recordSeq(record({ type: 'sensor', time, readings: { gsm_signal: 4, movement: 0 } }))).not.toBe(a);
    expect(
      recordSeq(record({ type: 'sensor', time: '2026-11-26T09:00:00.001Z', readings: { gsm_signal: 4, movement: 1 } })),
    ).not.toBe(a);
    expect(recordSeq(record({ type: 'gps', time, lat: 35.6, lng: 139.7, speed: undefined }))).toBe(
      recordSeq(record({ type: 'gps', time, lat: 35.6, lng: 139.7 })),
    );
  });
  it('keeps its own kind in the low 4 bits and stays a safe integer', () => {
    const seq = recordSeq(record({ type: 'gps', time, lat: 35.6, lng: 139.7 }));
    expect(seq % 16).toBe(RECORD_KIND);
    expect(Number.isSafeInteger(seq)).toBe(true);
  });
});
