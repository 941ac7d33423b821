import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeOsmand, osmandSeq, parseOsmandTime } from './osmand-decoder.js';

const now = new Date('2026-11-25T03:00:00.000Z');
const decode = (query: Record<string, string>, body?: unknown) => decodeOsmand(query, body, now);
const fixOf = (query: Record<string, string>, body?: unknown) => {
  const d = decode(query, body);
  if (!d.ok) throw new Error(`not decoded: ${d.error}`);
  return d.fix;
};

describe('OsmAnd query form', () => {
  it('decodes every field into gps, engine, battery and sensor records with km/h speeds', () => {
    const fix = fixOf({
      id: '358409100000101',
      lat: '35.681236',
      lon: '139.767125',
      timestamp: '1764039600',
      speed: '10',
      bearing: '92.5',
      altitude: '40.2',
      accuracy: '4.5',
      batt: '87',
      ignition: 'true',
      charge: 'false',
      motion: '1',
    });
    const time = '2025-11-25T03:00:00.000Z';
    expect(fix.imei).toBe('358409100000101');
    expect(fix.timed).toBe(true);
    expect(fix.records).toEqual([
      { type: 'gps', time, lat: 35.681236, lng: 139.767125, speed: 18.52, heading: 92.5, accuracy: 4.5 },
      { type: 'engine', time, running: 'on' },
      { type: 'battery', time, percentage: 87 },
      { type: 'sensor', time, readings: { altitude_m: 40.2, charging: false, moving: true } },
    ]);
    expect(osmandSeq(fix)).toBe(Date.parse(time));
  });

  it('takes `deviceid`, `location` "lat,lon", `heading` and ignition off', () => {
    const fix = fixOf({
      deviceid: '358409100000102',
      location: '35.5,139.5',
      heading: '180',
      ignition: '0',
      timestamp: '1764039600',
    });
    expect(fix.imei).toBe('358409100000102');
    expect(fix.records[0]).toMatchObject({ type: 'gps', lat: 35.5, lng: 139.5, heading: 180 });
    expect(fix.records[1]).toMatchObject({ type: 'engine', running: 'off' });
  });

  it('leaves out what was not sent, and uses the server time without a timestamp', () => {
    const fix = fixOf({ id: 'abc', lat: '1', lon: '2' });
    expect(fix.timed).toBe(false);
    expect(fix.records).toEqual([{ type: 'gps', time: now.toISOString(), lat: 1, lng: 2 }]);
  });

  it('refuses a report without an id, unreadable numbers or times, and one with nothing to store', () => {
    expect(decode({ lat: '1', lon: '2' })).toEqual({ ok: false, error: 'noId' });
    expect(decode({ id: 'x', lat: 'north', lon: '2' })).toEqual({ ok: false, error: 'badNumber', field: 'lat' });
    expect(decode({ id: 'x', lat: '1', lon: '2', speed: '1,5' })).toEqual({
      ok: false,
      error: 'badNumber',
      field: 'speed',
    });
    expect(decode({ id: 'x', lat: '1', lon: '2', timestamp: 'yesterday' })).toEqual({
      ok: false,
      error: 'badTime',
      field: 'timestamp',
    });
    expect(decode({ id: 'x' })).toEqual({ ok: false, error: 'empty' });
  });

  it('takes a report of cell towers or Wi-Fi alone (no coordinates) as a report without a position', () => {
    // Traccar's OsmAnd decoder form: `cell=mcc,mnc,lac,cid[,signal]` and `wifi=mac,signal`, each repeatable.
    const fix = fixOf({ id: 'abc', timestamp: '1764385200', cell: '440,10,4660,22136,-70' });
    expect(fix.records).toEqual([
      { type: 'sensor', time: '2025-11-29T03:00:00.000Z', readings: { cell_towers: 1, cell: '440,10,4660,22136,-70' } },
    ]);
    const wifi = decodeOsmand({ id: 'abc', wifi: ['a0:b1:c2:d3:e4:f5,-61', '00:11:22:33:44:55,-75'] }, undefined, now);
    expect(wifi.ok && wifi.fix.records).toEqual([
      { type: 'sensor', time: now.toISOString(), readings: { wifi_points: 2 } },
    ]);
  });

  it('refuses a numeric timestamp past the last time a Date holds, and the same in the JSON body', () => {
    // Found by the generated-input property below (seed -401669906): 8,640,000,000,000,001 ms threw a RangeError.
    for (const timestamp of ['8640000000000001', '99999999999999999999'])
      expect(decode({ id: 'x', lat: '1', lon: '2', timestamp })).toEqual({
        ok: false,
        error: 'badTime',
        field: 'timestamp',
      });
    const body = { device_id: 'x', location: { timestamp: 8640000000000001, coords: { latitude: 1, longitude: 2 } } };
    expect(decodeOsmand({}, body, now)).toEqual({ ok: false, error: 'badTime', field: 'timestamp' });
  });
});

describe('OsmAnd timestamps', () => {
  const at = '2025-11-25T03:00:00.000Z';
  it('reads seconds, milliseconds and ISO 8601 (a time without a zone is UTC)', () => {
    expect(parseOsmandTime('1764039600')?.toISOString()).toBe(at);
    expect(parseOsmandTime('1764039600000')?.toISOString()).toBe(at);
    expect(parseOsmandTime(1764039600000)?.toISOString()).toBe(at);
    expect(parseOsmandTime('1764039600.250')?.toISOString()).toBe('2025-11-25T03:00:00.250Z');
    expect(parseOsmandTime('2025-11-25T12:00:00+09:00')?.toISOString()).toBe(at);
    expect(parseOsmandTime('2025-11-25T03:00:00Z')?.toISOString()).toBe(at);
    expect(parseOsmandTime('2025-11-25 03:00:00')?.toISOString()).toBe(at);
    expect(parseOsmandTime(undefined)).toBeUndefined();
    expect(() => parseOsmandTime('25/11/2025')).toThrow();
    expect(() => parseOsmandTime({})).toThrow();
  });
});

describe('Traccar Client 9 JSON', () => {
  const body = {
    device_id: '358409100000103',
    location: {
      timestamp: '2025-11-25T03:00:00.000Z',
      coords: { latitude: 35.1, longitude: 136.9, speed: 10, heading: 270, altitude: 12, accuracy: 8 },
      battery: { level: 0.42, is_charging: true },
      is_moving: true,
      extras: { ignition: false },
    },
  };

  it('decodes coords (speed in m/s to km/h), battery level 0..1 to %, charging, moving and ignition', () => {
    const fix = fixOf({}, body);
    const time = '2025-11-25T03:00:00.000Z';
    expect(fix.imei).toBe('358409100000103');
    expect(fix.records).toEqual([
      { type: 'gps', time, lat: 35.1, lng: 136.9, speed: 36, heading: 270, accuracy: 8 },
      { type: 'engine', time, running: 'off' },
      { type: 'battery', time, percentage: 42 },
      { type: 'sensor', time, readings: { altitude_m: 12, charging: true, moving: true } },
    ]);
  });

  it('drops the -1 "unknown" speed, heading and battery level', () => {
    const unknown = {
      ...body,
      location: {
        ...body.location,
        coords: { latitude: 1, longitude: 2, speed: -1, heading: -1 },
        battery: { level: -1 },
      },
    };
    expect(fixOf({}, unknown).records[0]).toEqual({ type: 'gps', time: '2025-11-25T03:00:00.000Z', lat: 1, lng: 2 });
    expect(fixOf({}, unknown).records.some((r) => r.type === 'battery')).toBe(false);
  });

  it('refuses a body without device_id or with a non-numeric coordinate', () => {
    expect(decode({}, { location: body.location })).toEqual({ ok: false, error: 'noId' });
    const bad = { ...body, location: { ...body.location, coords: { latitude: '35.1x', longitude: 1 } } };
    expect(decode({}, bad)).toEqual({ ok: false, error: 'badNumber', field: 'latitude' });
  });
});

describe('OsmAnd decoder under generated input', () => {
  it('answers every query and body with a fix or a reason, never an exception', () => {
    const names = fc.constantFrom(
      'id',
      'deviceid',
      'lat',
      'lon',
      'location',
      'timestamp',
      'speed',
      'bearing',
      'altitude',
      'batt',
      'ignition',
    );
    fc.assert(
      fc.property(
        fc.dictionary(names, fc.oneof(fc.string(), fc.integer().map(String), fc.double().map(String))),
        fc.anything(),
        (query, body) => {
          const decoded = decodeOsmand(query, body, now);
          expect(typeof decoded.ok).toBe('boolean');
        },
      ),
      { numRuns: 500 },
    );
  });
});
