import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { SensorRecord } from './device-protocol.js';
import { fastCheck } from './fast-check.js';
import { timestamp } from './wire.js';

/** Every value: the check says yes exactly when the schema returns it as it is. */
function agreesWithZod(schema: z.ZodType, values: unknown[]) {
  const check = fastCheck(schema)!;
  expect(check).toBeDefined();
  for (const value of values) {
    const parsed = schema.safeParse(value);
    const asIs = parsed.success && JSON.stringify(parsed.data) === JSON.stringify(value);
    expect({ value, yes: check(value) }).toEqual({ value, yes: asIs });
  }
}

describe('fastCheck', () => {
  it('mirrors bounds, integers, literals, enums, ISO times, nullable and optional', () => {
    agreesWithZod(z.number().int().gt(0).lte(5), [1, 5, 0, 5.5, 6, -1, Number.NaN, Infinity, '1', null]);
    agreesWithZod(z.number().min(-90).max(90).nullish(), [-90, 90, 0, -90.0001, 90.0001, null, undefined, 'x']);
    agreesWithZod(z.literal('gps'), ['gps', 'GPS', '', 1, null]);
    agreesWithZod(z.enum(['on', 'off']), ['on', 'off', 'idle', null, 0]);
    agreesWithZod(z.iso.datetime({ offset: true }), [
      '2026-11-26T09:00:00.000Z',
      '2026-11-26T18:00:01+09:00',
      '2024-02-29T00:00:00Z',
      '2026-02-29T00:00:00Z',
      '2026-11-26T09:00:00',
      '2026-11-26 09:00:00Z',
      '',
      1,
    ]);
    agreesWithZod(z.boolean().optional(), [true, false, undefined, 0, 'true']);
    agreesWithZod(z.array(z.number()), [[], [1, 2], [1, 'x'], {}, null]);
  });

  it('takes an object with only known own keys, then its refinements', () => {
    const record = z
      .object({ a: z.number().nullish(), b: z.number().nullish() })
      .refine((r) => r.a != null || r.b != null, 'a または b');
    agreesWithZod(record, [{ a: 1 }, { b: 2 }, { a: 1, b: null }, {}, { a: null }, { a: 1, c: 3 }, null, [1]]);
    expect(fastCheck(record)!(Object.assign(Object.create({ inherited: 1 }) as object, { a: 1 }))).toBe(false);
  });

  it('passes the wire timestamp in its canonical form only', () => {
    const check = fastCheck(z.object({ t: timestamp() }))!;
    expect(check({ t: '2026-11-25T02:59:00.000Z' })).toBe(true);
    expect(check({ t: '2026-11-25T11:59:00+09:00' })).toBe(false); // the codec normalises it: zod's to give
  });

  it('compiles no check for what it cannot mirror (defaults, records, field refinements, transforms, lengths)', () => {
    const time = z.iso.datetime({ offset: true });
    expect(fastCheck(SensorRecord)).toBeUndefined();
    expect(fastCheck(z.object({ time, n: z.number().refine((v) => v !== 3) }))).toBeUndefined();
    expect(fastCheck(z.object({ time, n: z.number().default(1) }))).toBeUndefined();
    expect(fastCheck(z.object({ time, s: z.string().transform((v) => v.trim()) }))).toBeUndefined();
    expect(fastCheck(z.object({ time, s: z.string().max(3) }))).toBeUndefined();
    expect(fastCheck(z.object({ time, n: z.number().multipleOf(2) }))).toBeUndefined();
    expect(fastCheck(z.object({ time, u: z.url() }))).toBeUndefined();
    expect(fastCheck(z.object({ time, n: z.union([z.string(), z.number()]) }))).toBeUndefined();
    expect(fastCheck(z.looseObject({ time }))).toBeUndefined();
    expect(fastCheck(z.object({ time, n: z.coerce.number() }))).toBeUndefined();
  });
});
