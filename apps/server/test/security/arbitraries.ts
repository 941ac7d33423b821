import fc from 'fast-check';
import type { z } from 'zod';

/**
 * fast-check arbitraries read from the contract's zod schemas (mostly valid
 * requests, so the server's logic runs), and beyond them: wrong types, missing
 * and extra fields, huge and exotic strings, extreme numbers, nested junk.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Def = Record<string, any>;
const defOf = (schema: z.ZodType): Def => (schema as unknown as { _zod: { def: Def } })._zod.def;

/** Ids that exist in the security world, so valid-looking requests often reach real records. */
export const KNOWN_IDS = [
  'car-a',
  'car-b',
  'user-a',
  'user-b',
  'device-a',
  'device-b',
  'company-a',
  'company-b',
  'admin-a',
  'staff-a',
  'super-admin',
  'tpl-a',
  'tpl-b',
  '358409100000001',
  '358409100000002',
];

/** Strings that have broken servers before. */
export const NASTY_STRINGS = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\ud800',
  '\udfff',
  '𠮷野家',
  'ｶﾀｶﾅ',
  '\u202egnp.exe',
  '👨‍👩‍👧‍👦',
  '١٢٣',
  '\r\n',
  '\t=1+1',
  '=HYPERLINK("http://x")',
  "' OR 1=1 --",
  '"; DROP TABLE cars; --',
  '<script>alert(1)</script>',
  '../../etc/passwd',
  '%00',
  '${7*7}',
  '{{7*7}}',
  'NaN',
  '-0',
  '1e309',
  '0000-01-01T00:00:00Z',
  '9999-12-31T23:59:59+23:59',
  '2026-02-30',
  'a'.repeat(300),
  'あ'.repeat(70_000),
  'x'.repeat(1_100_000),
];

export const NASTY_NUMBERS = [
  -1,
  -0,
  0.5,
  -0.5,
  1e308,
  -1e308,
  2 ** 31,
  2 ** 53 + 2,
  -(2 ** 63),
  5e-324,
  Number.MAX_SAFE_INTEGER,
  Number.MIN_SAFE_INTEGER,
];

const nastyString = fc.oneof(
  fc.constantFrom(...NASTY_STRINGS),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
);
const nastyNumber = fc.oneof(
  fc.constantFrom(...NASTY_NUMBERS),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);

/** Any JSON value, exotic ones favoured. */
export const junk: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: nastyString },
  { weight: 3, arbitrary: nastyNumber },
  fc.boolean(),
  fc.constant(null),
  fc.constant([]),
  fc.constant({}),
  fc.jsonValue({ maxDepth: 4 }),
  fc.array(nastyString, { maxLength: 3 }),
  fc.dictionary(nastyString, nastyString, { maxKeys: 3 }),
);

const datesAround = fc.date({
  min: new Date(Date.now() - 400 * 86_400_000),
  max: new Date(Date.now() + 40 * 86_400_000),
  noInvalidDate: true,
});
/** 'YYYY/MM/DD HH:mm' in Japan time (docs/product.md §9). */
const jstMinute = (d: Date) =>
  new Date(d.getTime() + 9 * 3600_000).toISOString().slice(0, 16).replace('T', ' ').replace(/-/g, '/');

function stringArb(def: Def): fc.Arbitrary<string> {
  let min = 0;
  let max = 40;
  const patterns: RegExp[] = [];
  if (def.pattern instanceof RegExp && def.format !== 'email') patterns.push(def.pattern);
  for (const c of (def.checks ?? []) as { _zod: { def: Def } }[]) {
    const d = c._zod.def;
    if (d.check === 'min_length') min = Math.max(min, d.minimum);
    if (d.check === 'max_length') max = Math.min(max, d.maximum);
    if (d.check === 'length_equals') min = max = d.length;
    if (d.check === 'string_format' && d.pattern instanceof RegExp) patterns.push(d.pattern);
  }
  if (def.format === 'email') return fc.emailAddress();
  if (def.format === 'ipv4') return fc.ipV4();
  if (def.format === 'ipv6') return fc.ipV6();
  if (def.format === 'datetime')
    return fc.oneof(
      fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
      fc.stringMatching(patterns[0] ?? /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
    );
  const ids = patterns.some((p) => p.source.includes('A-Za-z0-9_-')) ? [fc.constantFrom(...KNOWN_IDS)] : [];
  const base = patterns.length
    ? fc.stringMatching(patterns[0]!)
    : fc.string({ unit: 'grapheme-composite', minLength: min, maxLength: Math.max(min, max) });
  // Free text is often a date or time in these forms (filters, execute_at): give those a chance.
  const dates = patterns.length ? [] : [datesAround.map((d) => d.toISOString()), datesAround.map(jstMinute)];
  return fc.oneof(
    base.filter((s) => s.length >= min && s.length <= Math.max(max, min)),
    ...ids,
    ...dates,
  );
}

function numberArb(def: Def): fc.Arbitrary<number> {
  let min = -1e6;
  let max = 1e6;
  let int = false;
  for (const c of (def.checks ?? []) as { _zod: { def: Def } }[]) {
    const d = c._zod.def;
    if (d.check === 'number_format' && /int/.test(d.format)) int = true;
    if (d.check === 'greater_than') min = d.value + (d.inclusive ? 0 : int ? 1 : 1e-9);
    if (d.check === 'less_than') max = d.value - (d.inclusive ? 0 : int ? 1 : 1e-9);
  }
  return int ? fc.integer({ min: Math.ceil(min), max: Math.floor(max) }) : fc.double({ min, max, noNaN: true });
}

/** Values that mostly satisfy the schema (its input side). */
export function fromSchema(schema: z.ZodType, depth = 0): fc.Arbitrary<unknown> {
  const def = defOf(schema);
  if (depth > 8) return fc.constant(null);
  const inner = (s: z.ZodType) => fromSchema(s, depth + 1);
  switch (def.type) {
    case 'string':
      return stringArb(def);
    case 'number':
      return numberArb(def);
    case 'boolean':
      return fc.boolean();
    case 'literal':
      return fc.constantFrom(...(def.values as unknown[]));
    case 'enum':
      return fc.constantFrom(...Object.values(def.entries as Record<string, unknown>));
    case 'null':
      return fc.constant(null);
    case 'undefined':
      return fc.constant(undefined);
    case 'object': {
      const shape = def.shape as Record<string, z.ZodType>;
      return fc
        .record(Object.fromEntries(Object.entries(shape).map(([k, v]) => [k, inner(v)])))
        .map((o) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)));
    }
    case 'array': {
      let max = 4;
      for (const c of (def.checks ?? []) as { _zod: { def: Def } }[])
        if (c._zod.def.check === 'max_length') max = Math.min(max, c._zod.def.maximum);
      return fc.array(inner(def.element), { maxLength: max });
    }
    case 'tuple':
      return fc.tuple(...(def.items as z.ZodType[]).map(inner));
    case 'union':
      return fc.oneof(...(def.options as z.ZodType[]).map(inner));
    case 'intersection':
      return inner(def.left);
    case 'record':
      return fc.dictionary(fc.string({ maxLength: 10 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 });
    case 'optional':
      return fc.option(inner(def.innerType), { nil: undefined, freq: 4 });
    case 'nullable':
      return fc.option(inner(def.innerType), { nil: null, freq: 4 });
    case 'default':
    case 'prefault':
      return fc.option(inner(def.innerType), { nil: undefined, freq: 3 });
    case 'readonly':
    case 'catch':
    case 'nonoptional':
      return inner(def.innerType);
    case 'lazy':
      return inner(def.getter());
    case 'pipe': {
      // z.preprocess is a pipe from a transform: generate for what the transform feeds; a
      // .transform() is a pipe into one: generate its input. Else the output side is the stricter.
      if (defOf(def.in).type === 'transform') return inner(def.out);
      if (defOf(def.out).type === 'transform') return inner(def.in);
      return fc.oneof({ weight: 3, arbitrary: inner(def.out) }, { weight: 1, arbitrary: inner(def.in) });
    }
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

/** Every path of a JSON value, root first. */
function paths(value: unknown, at: (string | number)[] = [], out: (string | number)[][] = []) {
  out.push(at);
  if (value && typeof value === 'object')
    for (const [k, v] of Object.entries(value)) paths(v, [...at, Array.isArray(value) ? Number(k) : k], out);
  return out;
}

function mutate(value: unknown, pick: number, how: 'drop' | 'replace' | 'add', replacement: unknown): unknown {
  const all = paths(value);
  const path = all[pick % all.length]!;
  if (path.length === 0)
    return how === 'add' && value && typeof value === 'object'
      ? { ...(value as object), extra: replacement }
      : replacement;
  const copy = structuredClone(value) as Record<string | number, unknown>;
  let parent = copy;
  for (const k of path.slice(0, -1)) parent = parent[k] as Record<string | number, unknown>;
  const last = path.at(-1)!;
  if (how === 'drop') {
    if (Array.isArray(parent)) parent.splice(Number(last), 1);
    else delete parent[last];
  } else if (how === 'replace') parent[last] = replacement;
  else parent[`${String(last)}_extra`] = replacement;
  return copy;
}

/** A request body: valid by the schema, the same with one field dropped, replaced by junk or joined by junk, or junk outright. */
export function bodyFor(schema: z.ZodType): fc.Arbitrary<unknown> {
  const valid = fromSchema(schema);
  return fc.oneof(
    { weight: 3, arbitrary: valid },
    {
      weight: 6,
      arbitrary: fc
        .tuple(valid, fc.nat(), fc.constantFrom('drop' as const, 'replace' as const, 'add' as const), junk)
        .map(([v, pick, how, j]) => mutate(v, pick, how, j)),
    },
    { weight: 1, arbitrary: junk },
  );
}

/** Bodies no JSON parser or content-type check should let through, or should refuse politely. */
export const rawRequest = fc.oneof(
  fc.record({ contentType: fc.constant('application/json'), payload: fc.string({ maxLength: 60 }) }),
  fc.record({
    contentType: fc.constant('application/json'),
    payload: fc.constantFrom(
      '',
      '{',
      '{"a":',
      '[1,2',
      'null',
      'true',
      '"text"',
      '{"__proto__":{"admin":true}}',
      '{"constructor":{"prototype":{"admin":true}}}',
      '\uFEFF{}',
      '{"a":1}garbage',
      '{"a":1,"a":2}',
      'NaN',
      '1e999',
    ),
  }),
  fc.record({
    contentType: fc.constantFrom(
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'application/xml',
      'application/json; charset=utf-16',
      'application/jsonx',
      '',
      '*/*',
    ),
    payload: fc.constantFrom('{}', 'a=1&b=2', '<a/>', '--x\r\n\r\n--x--'),
  }),
  fc.record({
    contentType: fc.constant('application/json'),
    payload: fc.constant(`{"a":"${'x'.repeat(1024 * 1024 + 10)}"}`),
  }),
  fc.record({
    contentType: fc.constant('application/json'),
    payload: fc.integer({ min: 33, max: 5000 }).map((n) => `${'['.repeat(n)}${']'.repeat(n)}`),
  }),
);

/** Authorization headers that must all be refused. */
export const badAuthorization = fc.oneof(
  fc.constantFrom(
    '',
    'Bearer',
    'Bearer ',
    'Bearer null',
    'Bearer undefined',
    'bearer x',
    `Bearer ${'a'.repeat(300)}`,
    'Basic Og==',
    'Basic ::',
    'Digest x',
    'Bearer \u00e9',
  ),
  fc.stringMatching(/^[\x21-\x7e]{0,80}$/).map((s) => `Bearer ${s}`),
  fc.base64String({ maxLength: 80 }).map((s) => `Basic ${s}`),
  // Credentials that decode to anything: NUL, control characters, lone surrogates, no colon.
  fc
    .tuple(fc.string({ unit: 'binary', maxLength: 70 }), fc.string({ unit: 'binary', maxLength: 20 }))
    .map(([id, pw]) => `Basic ${Buffer.from(`${id}:${pw}`).toString('base64')}`),
);
