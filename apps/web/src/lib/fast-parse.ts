import { toWireTime } from '@fleet/contract';
import { z } from 'zod';

/**
 * A fast path in front of a contract schema, for answers of thousands of rows (the fleet map's
 * 10,000 vehicles and their live states). The console runs zod without its JIT (the CSP forbids
 * eval), where a row of the telemetry state costs some 15-60 µs, two thirds of it in the two
 * timestamp codecs: 10,000 rows took 150-650 ms of the main thread.
 *
 * `fastParser(schema)` derives a plain check from the schema itself (the contract stays the one
 * source of truth): strings, finite numbers, booleans, nullable/optional, objects without unknown
 * keys, arrays, and the wire timestamp (`timestamp()` of the contract) in its canonical form, which
 * its codec passes through unchanged. A value the check accepts is exactly what the schema would
 * return, so it is returned as it is; anything else (a non-canonical date, an unknown key, a wrong
 * type) goes to the schema itself, which normalises or rejects it. A schema using anything else
 * (checks, transforms, defaults, unions, enums) gets no fast path: the parser is the schema's.
 */
type Check = (v: unknown) => boolean;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The check for one schema, or null when the schema uses something the fast path does not know. */
function checkOf(schema: z.ZodType): Check | null {
  const def = (schema as unknown as { _zod: { def: Record<string, unknown> & { type: string } } })._zod.def;
  const checks = def.checks as unknown[] | undefined;
  if (checks && checks.length > 0) return null;
  switch (def.type) {
    case 'string':
      return (v) => typeof v === 'string';
    case 'number':
      return (v) => typeof v === 'number' && Number.isFinite(v);
    case 'boolean':
      return (v) => typeof v === 'boolean';
    case 'nullable': {
      const inner = checkOf(def.innerType as z.ZodType);
      return inner && ((v) => v === null || inner(v));
    }
    case 'optional': {
      const inner = checkOf(def.innerType as z.ZodType);
      return inner && ((v) => v === undefined || inner(v));
    }
    case 'array': {
      const element = checkOf(def.element as z.ZodType);
      return (
        element &&
        ((v) => {
          if (!Array.isArray(v)) return false;
          for (const e of v) if (!element(e)) return false;
          return true;
        })
      );
    }
    case 'object': {
      if (def.catchall !== undefined) return null;
      const fields: [string, Check][] = [];
      for (const [key, field] of Object.entries(def.shape as Record<string, z.ZodType>)) {
        const check = checkOf(field);
        if (!check) return null;
        fields.push([key, check]);
      }
      const known = new Set(fields.map(([k]) => k));
      return (v) => {
        if (!isObject(v)) return false;
        for (const [key, check] of fields) if (!check(v[key])) return false;
        for (const key in v) if (!known.has(key)) return false;
        return true;
      };
    }
    case 'pipe':
      // The contract's wire timestamp: a codec whose output is a 'date-time' string. Its decode keeps
      // a canonical string as it is (toWireTime), so the canonical form needs nothing more.
      if (def.transform && z.globalRegistry.get(def.out as z.ZodType)?.format === 'date-time')
        return (v) => typeof v === 'string' && toWireTime(v) === v;
      return null;
    default:
      return null;
  }
}

export interface FastParser<T> {
  (input: unknown): { success: true; data: T } | { success: false };
  /** Whether the schema has a fast path at all (tests assert it for the schemas that need one). */
  readonly fast: boolean;
}

export function fastParser<S extends z.ZodType>(schema: S): FastParser<z.output<S>> {
  const check = checkOf(schema);
  const parse = (input: unknown) => {
    if (check?.(input)) return { success: true as const, data: input as z.output<S> };
    const r = schema.safeParse(input);
    return r.success ? { success: true as const, data: r.data } : { success: false as const };
  };
  return Object.assign(parse, { fast: check !== null });
}
