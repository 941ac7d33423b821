import { z } from 'zod';
import { toWireTime } from './wire.js';

/**
 * A plain check derived from a contract schema, for the paths where zod's parse is the cost: the
 * console's fleet map (10,000 rows and their live states; the console runs zod without its JIT, as the
 * CSP forbids eval) and the device gateway (tens of thousands of records a second, where zod's parse
 * allocates many times each record's size: bench/README.md, Measurements behind the code: Gateway). The schema stays the one source of truth: the check is
 * compiled from its definition, once, and answers true only for a value the schema would return as it
 * is; anything else (an unknown key, a non-canonical time, a value out of bounds, a wrong type) goes to
 * the schema itself, which normalises or refuses it with its message.
 *
 * Compiled: strings (a format's own pattern, e.g. the ISO time), finite numbers with their bounds and
 * `.int()`, booleans, literals, enums, nullable and optional, arrays, objects without unknown keys and
 * their refinements (called as zod calls them), and the contract's wire timestamp (`timestamp()`) in its
 * canonical form, which its codec passes through unchanged. A schema using anything else (a default, a
 * transform, a union, a length, a field's own refinement) gets no check: undefined.
 */
export type FastCheck = (value: unknown) => boolean;

/** The parts of zod 4's definitions read here (zod/v4/core). */
interface Def {
  type: string;
  checks?: { _zod: { def: CheckDef } }[];
  innerType?: z.ZodType;
  element?: z.ZodType;
  coerce?: boolean;
  format?: string;
  pattern?: RegExp;
  shape?: Record<string, z.ZodType>;
  catchall?: unknown;
  transform?: unknown;
  out?: z.ZodType;
}
interface CheckDef {
  check: string;
  value?: unknown;
  inclusive?: boolean;
  format?: string;
  when?: unknown;
  fn?: (value: unknown) => unknown;
}

const ISO_FORMATS = new Set(['datetime', 'date', 'time']);

const defOf = (schema: z.ZodType) => (schema as unknown as { _zod: { def: Def } })._zod.def;

/** A number's own checks: bounds and the safe integer of `.int()`; undefined for any other. */
function numberCheck(checks: readonly CheckDef[]): FastCheck | undefined {
  const parts: FastCheck[] = [];
  for (const c of checks) {
    if (c.when !== undefined) return undefined;
    const bound = c.value;
    if (c.check === 'number_format' && c.format === 'safeint') parts.push((v) => Number.isSafeInteger(v));
    else if (typeof bound !== 'number') return undefined;
    else if (c.check === 'greater_than')
      parts.push(c.inclusive ? (v) => (v as number) >= bound : (v) => (v as number) > bound);
    else if (c.check === 'less_than')
      parts.push(c.inclusive ? (v) => (v as number) <= bound : (v) => (v as number) < bound);
    else return undefined;
  }
  return (v) => {
    if (typeof v !== 'number' || !Number.isFinite(v)) return false;
    for (let i = 0; i < parts.length; i++) if (!parts[i]!(v)) return false;
    return true;
  };
}

/** An object's check: only its own keys, all known, each field's check, then its refinements. */
function objectCheck(def: Def, checks: readonly CheckDef[]): FastCheck | undefined {
  if (def.catchall !== undefined || !def.shape) return undefined;
  const names = Object.keys(def.shape);
  const fields: FastCheck[] = [];
  for (const name of names) {
    const check = fastCheck(def.shape[name]!);
    if (!check) return undefined;
    fields.push(check);
  }
  const refinements: ((value: unknown) => unknown)[] = [];
  for (const c of checks) {
    if (c.check !== 'custom' || c.when !== undefined || typeof c.fn !== 'function') return undefined;
    refinements.push(c.fn);
  }
  const known = new Set(names);
  return (value) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
    const object = value as Record<string, unknown>;
    for (const key in object) if (!known.has(key) || !Object.hasOwn(object, key)) return false;
    for (let i = 0; i < names.length; i++) if (!fields[i]!(object[names[i]!])) return false;
    for (const refine of refinements) {
      const ok = refine(object);
      if (!ok || ok instanceof Promise) return false;
    }
    return true;
  };
}

/** The check of a schema, or undefined when it uses something not compiled here. */
export function fastCheck(schema: z.ZodType): FastCheck | undefined {
  const def = defOf(schema);
  const checks = (def.checks ?? []).map((c) => c._zod.def);
  if (def.type === 'number') return def.coerce ? undefined : numberCheck(checks);
  if (def.type === 'object') return objectCheck(def, checks);
  // A string format's own check is the schema itself (its pattern), not in `checks`.
  if (checks.length > 0) return undefined;
  switch (def.type) {
    case 'string': {
      if (def.coerce) return undefined;
      if (def.format === undefined) return (v) => typeof v === 'string';
      // Only the ISO formats, whose whole check is their pattern (others, e.g. URL, check more).
      const pattern = def.pattern;
      if (!ISO_FORMATS.has(def.format) || !(pattern instanceof RegExp)) return undefined;
      return (v) => {
        if (typeof v !== 'string') return false;
        pattern.lastIndex = 0; // as zod does before each test
        return pattern.test(v);
      };
    }
    case 'boolean':
      return def.coerce ? undefined : (v) => typeof v === 'boolean';
    case 'literal':
    case 'enum': {
      // The set zod itself checks against (an enum's values without a numeric enum's reverse keys).
      const allowed = (schema as unknown as { _zod: { values?: Set<unknown> } })._zod.values;
      return allowed ? (v) => allowed.has(v) : undefined;
    }
    case 'nullable':
    case 'optional': {
      const inner = def.innerType && fastCheck(def.innerType);
      if (!inner) return undefined;
      return def.type === 'nullable' ? (v) => v === null || inner(v) : (v) => v === undefined || inner(v);
    }
    case 'array': {
      const element = def.element && fastCheck(def.element);
      if (!element) return undefined;
      return (v) => {
        if (!Array.isArray(v)) return false;
        for (const e of v) if (!element(e)) return false;
        return true;
      };
    }
    case 'pipe':
      // The contract's wire timestamp: a codec whose output is a 'date-time' string. Its decode keeps
      // a canonical string as it is (toWireTime), so the canonical form needs nothing more.
      if (def.transform && def.out && z.globalRegistry.get(def.out)?.format === 'date-time')
        return (v) => typeof v === 'string' && toWireTime(v) === v;
      return undefined;
    default:
      return undefined;
  }
}
