import { DeviceRecord } from '@fleet/contract';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { acceptedAsIs, recordChecks } from './record-check.js';

/** Values a field of a record type may hold when valid (the contract's bounds, edges included). */
const validField: Record<string, fc.Arbitrary<unknown>> = {
  time: fc.oneof(
    fc
      .date({ min: new Date('1971-01-01T00:00:00Z'), max: new Date('2099-12-31T23:59:59Z'), noInvalidDate: true })
      .map((d) => d.toISOString()),
    fc.constantFrom(
      '2026-11-26T18:00:01+09:00',
      '2026-11-26T09:00:03.5Z',
      '2024-02-29T00:00:00Z',
      '2026-11-26T09:00:00.123456-05:30',
    ),
  ),
  lat: fc.double({ min: -90, max: 90, noNaN: true }),
  lng: fc.double({ min: -180, max: 180, noNaN: true }),
  speed: fc.oneof(fc.double({ min: 0, max: 400, noNaN: true }), fc.constant(null)),
  heading: fc.oneof(fc.double({ min: 0, max: 360, noNaN: true }), fc.constant(null)),
  satellites: fc.oneof(fc.integer({ min: 0, max: 128 }), fc.constant(null)),
  accuracy: fc.oneof(fc.double({ min: 0, max: 100_000, noNaN: true }), fc.constant(null)),
  voltage: fc.oneof(fc.double({ min: 0, max: 100, noNaN: true }), fc.constant(null)),
  percentage: fc.oneof(fc.double({ min: 0, max: 100, noNaN: true }), fc.constant(null)),
  running: fc.constantFrom('on', 'off', null),
  engine_line: fc.constantFrom('connected', 'disconnected', null),
  state: fc.constantFrom('connected', 'disconnected'),
};

/** Anything at all, with the edges and near misses a terminal's firmware gets wrong. */
const anyValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.double(), // NaN, ±Infinity and -0 included
  fc.integer(),
  fc.constantFrom(-90.000001, 90.000001, -180.1, 180.1, -0.0001, 400.0001, 360.5, 128.5, 129, 100_001, 1e300),
  fc.constantFrom(
    '2026-02-29T00:00:00Z',
    '2026-11-26 09:00:00Z',
    '2026-11-26T09:00:00',
    '2026-11-26T24:00:00Z',
    '2026-11-26T09:00:00+9:00',
    '2026-11-26T09:00Z',
    '',
    'on',
    'connected',
    'gps',
    'battery',
  ),
  fc.string(),
  fc.boolean(),
  fc.constant(null),
  fc.constant(undefined),
  fc.constant({}),
  fc.constant([]),
);

const optionsOf = (DeviceRecord as unknown as { options: z.ZodObject[] }).options;
const typeOf = (option: z.ZodObject) => (option.shape.type as z.ZodLiteral<string>).value;

/** A record of this type: mostly valid fields, some fields anything or left out, now and then a key the schema does not know. */
function recordOf(option: z.ZodObject): fc.Arbitrary<Record<string, unknown>> {
  const fields = Object.keys(option.shape).filter((k) => k !== 'type');
  const fieldArbs = Object.fromEntries(
    fields.map((k) => [
      k,
      fc.oneof(
        { weight: 6, arbitrary: validField[k] ?? anyValue },
        { weight: 1, arbitrary: anyValue },
        { weight: 1, arbitrary: fc.constant(undefined) },
      ),
    ]),
  );
  return fc
    .tuple(
      fc.oneof({ weight: 9, arbitrary: fc.constant(typeOf(option)) }, { weight: 1, arbitrary: anyValue }),
      fc.record(fieldArbs),
      fc.option(fc.constantFrom('extra', 'Lat', '__proto__x', 'speed_kmh'), { freq: 8 }),
    )
    .map(([type, values, extra]) => {
      const record: Record<string, unknown> = { type };
      for (const [k, v] of Object.entries(values)) if (v !== undefined) record[k] = v;
      if (extra !== null) record[extra] = 1;
      return record;
    });
}

const compiledOptions = optionsOf.filter((o) => recordChecks.has(typeOf(o)));

describe("the gateway's compiled record checks (record-check.ts, the contract's fastCheck)", () => {
  it('is compiled for the records terminals send most: GPS, battery, engine, connection', () => {
    expect([...recordChecks.keys()].sort()).toEqual(['battery', 'connection', 'engine', 'gps']);
  });

  it('accepts a record only when zod accepts it and gives back the same keys and values', () => {
    for (const option of compiledOptions) {
      fc.assert(
        fc.property(recordOf(option), (input) => {
          const fast = acceptedAsIs(input);
          const parsed = DeviceRecord.safeParse(input);
          if (fast) {
            expect(fast).toBe(input);
            expect(parsed.success).toBe(true);
            expect(parsed.data).toStrictEqual(input);
          }
          // Without a key the schema does not know, the two agree both ways: whatever zod accepts needs no zod.
          const known = Object.keys(input).every((k) => k in option.shape);
          if (known && parsed.success) expect(fast).toBe(input);
        }),
        { numRuns: 3000 },
      );
    }
  });

  it('leaves the records zod must decide to zod: unknown keys, wrong types, values out of bounds', () => {
    const gps = { type: 'gps', time: '2026-11-26T09:00:00.000Z', lat: 35.6, lng: 139.7 };
    expect(acceptedAsIs(gps)).toBe(gps);
    expect(acceptedAsIs({ ...gps, speed: null, satellites: 10 })).toBeDefined();
    expect(acceptedAsIs({ ...gps, unknown: 1 })).toBeUndefined(); // zod would strip it: zod's copy is the record
    expect(acceptedAsIs({ ...gps, lat: 90.0001 })).toBeUndefined();
    expect(acceptedAsIs({ ...gps, lat: Number.NaN })).toBeUndefined();
    expect(acceptedAsIs({ ...gps, satellites: 1.5 })).toBeUndefined();
    expect(acceptedAsIs({ ...gps, time: '2026-02-29T00:00:00Z' })).toBeUndefined();
    expect(acceptedAsIs({ ...gps, time: '2026-11-26T09:00:00' })).toBeUndefined();
    expect(acceptedAsIs({ type: 'battery', time: gps.time })).toBeUndefined(); // the refinement: a value needed
    expect(acceptedAsIs({ type: 'battery', time: gps.time, percentage: 80 })).toBeDefined();
    expect(acceptedAsIs({ type: 'engine', time: gps.time, running: 'idle' })).toBeUndefined();
    expect(acceptedAsIs({ type: 'sensor', time: gps.time, vibration: 1 })).toBeUndefined(); // not compiled
    expect(acceptedAsIs(Object.assign(Object.create({ inherited: 1 }) as object, gps))).toBeUndefined();
    for (const odd of [null, undefined, 1, 'gps', [gps]]) expect(acceptedAsIs(odd)).toBeUndefined();
  });
});
