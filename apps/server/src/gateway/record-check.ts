import { DeviceRecord, fastCheck, type FastCheck } from '@fleet/contract';
import type { z } from 'zod';

/**
 * The gateway's fast yes for a terminal's record: the contract's `fastCheck` of each record schema of
 * the union (device-protocol.ts), compiled once, answering without allocating whether zod would accept
 * the record exactly as it is. zod stays the authority: a record no check accepts (invalid, with a key
 * the schema does not know, of a type with no check) goes through zod as before, which accepts or
 * refuses it with its Japanese reason; record-check.test.ts compares the two on generated records.
 * Why: zod's parse allocates a payload per field and a copy of each record, many times the parsed JSON, and
 * was a tenth of the server's CPU time a record at the gateway's target rate (bench/README.md, Measurements behind the code: Gateway;
 * bench/HISTORY.md, "What was changed to reach the targets").
 */
export const recordChecks: ReadonlyMap<unknown, FastCheck> = new Map(
  (DeviceRecord as unknown as { options: z.ZodObject[] }).options.flatMap((option) => {
    const check = fastCheck(option);
    const type = (option.shape.type as z.ZodLiteral<string>).value;
    return check ? [[type, check] as const] : [];
  }),
);

/**
 * The record as zod would give it when its type's check accepts it (the input itself: zod's copy would
 * hold the same keys and values); undefined otherwise, for zod to decide.
 */
export function acceptedAsIs(input: unknown): DeviceRecord | undefined {
  if (typeof input !== 'object' || input === null) return undefined;
  const check = recordChecks.get((input as { type?: unknown }).type);
  return check?.(input) ? (input as DeviceRecord) : undefined;
}
