/**
 * Input PostgreSQL cannot store or our validation cannot walk: U+0000 (text
 * and jsonb refuse it), lone UTF-16 surrogates (jsonb refuses them), non-zero
 * numbers too small for a `real` column (it refuses the underflow) and
 * nesting deeper than MAX_INPUT_DEPTH (JSON.stringify runs out of stack).
 * Checked before validation, so such input is a 400, never a 500.
 */
export const MAX_INPUT_DEPTH = 32;
/** Below this a number underflows PostgreSQL's `real` (4-byte float, smallest normal ≈ 1.18e-38). */
const SMALLEST_STORABLE = 1e-37;

// eslint-disable-next-line no-control-regex -- U+0000 is exactly what this looks for
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
/** Any U+0000 or surrogate at all: without one a string cannot hold what UNSTORABLE looks for (a cheap first look). */
// eslint-disable-next-line no-control-regex -- as above
const SUSPECT = /[\u0000\uD800-\uDFFF]/;
const storable = (s: string) => !SUSPECT.test(s) || s.search(UNSTORABLE) === -1;
const storableNumber = (v: number) => v === 0 || !(Math.abs(v) < SMALLEST_STORABLE);
/** A key for the path: the path itself may end up stored (a batch's rejection reasons). */
const printable = (key: string) => key.replace(UNSTORABLE, '\uFFFD');

/**
 * Whether findUnstorableInput finds nothing in `value` (at `depth` of the
 * input it belongs to): the same rules, but no paths built and nothing
 * allocated beyond each object's keys, for the usual case of input that is
 * fine (a terminal's every record). Recursion is bounded: at MAX_INPUT_DEPTH
 * the answer is already no. With `strings` false the strings and keys are
 * taken as storable, as they are in a JSON body without a `\u` escape
 * (json-body.ts bodyWithoutEscapes); numbers and depth are still checked.
 */
export function isStorableInput(value: unknown, depth = 0, strings = true): boolean {
  if (typeof value === 'string') return !strings || storable(value);
  if (typeof value === 'number') return storableNumber(value);
  if (value === null || typeof value !== 'object') return true;
  if (depth >= MAX_INPUT_DEPTH) return false;
  const keys = Object.keys(value);
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    if ((strings && !storable(key)) || !isStorableInput((value as Record<string, unknown>)[key], depth + 1, strings))
      return false;
  }
  return true;
}

/** The path ('a.b.0') of the first unstorable string, key, number or too-deep value; '_' for the root; undefined when all is well. */
export function findUnstorableInput(value: unknown): string | undefined {
  return isStorableInput(value) ? undefined : pathOfUnstorable(value);
}

function pathOfUnstorable(value: unknown): string | undefined {
  // An explicit stack: the input may be nested a million levels deep.
  const stack: [unknown, string, number][] = [[value, '', 0]];
  while (stack.length) {
    const [v, path, depth] = stack.pop()!;
    if (typeof v === 'string') {
      if (!storable(v)) return path || '_';
      continue;
    }
    if (typeof v === 'number') {
      if (!storableNumber(v)) return path || '_';
      continue;
    }
    if (v === null || typeof v !== 'object') continue;
    if (depth >= MAX_INPUT_DEPTH) return path || '_';
    for (const [key, child] of Object.entries(v)) {
      const at = path ? `${path}.${printable(key)}` : printable(key);
      if (!storable(key)) return at;
      stack.push([child, at, depth + 1]);
    }
  }
  return undefined;
}
