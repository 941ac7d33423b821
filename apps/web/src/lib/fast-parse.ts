import { fastCheck } from '@fleet/contract';
import type { z } from 'zod';

/**
 * A fast path in front of a contract schema, for answers of thousands of rows (the fleet map's
 * 10,000 vehicles and their live states). The console runs zod without its JIT (the CSP forbids
 * eval), where most of a telemetry state row's cost is in the two timestamp codecs, and 10,000 rows held the
 * main thread for a noticeable pause (bench/README.md, Measurements behind the code: Console).
 *
 * `fastParser(schema)` puts the contract's `fastCheck` (fast-check.ts there: a plain check compiled from
 * the schema itself, the contract staying the one source of truth) in front of the schema: a value the
 * check accepts is exactly what the schema would return, so it is returned as it is; anything else (a
 * non-canonical date, an unknown key, a wrong type) goes to the schema, which normalises or rejects it.
 * A schema the check cannot mirror gets no fast path: the parser is the schema's.
 */
export interface FastParser<T> {
  (input: unknown): { success: true; data: T } | { success: false };
  /** Whether the schema has a fast path at all (tests assert it for the schemas that need one). */
  readonly fast: boolean;
}

export function fastParser<S extends z.ZodType>(schema: S): FastParser<z.output<S>> {
  const check = fastCheck(schema);
  const parse = (input: unknown) => {
    if (check?.(input)) return { success: true as const, data: input as z.output<S> };
    const r = schema.safeParse(input);
    return r.success ? { success: true as const, data: r.data } : { success: false as const };
  };
  return Object.assign(parse, { fast: check !== undefined });
}
