import { z } from 'zod';
import { validationMessages as m } from './messages.js';

/** Field builders that carry the spec's Japanese messages (docs/product.md §5). */
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 32;
/** Upper bound for free text so a 10 kB string is a 400, not a stored row. */
export const TEXT_MAX = 255;

export const requiredText = (max = TEXT_MAX) =>
  z.string({ error: m.required }).trim().min(1, m.required).max(max, m.tooLong);

export const optionalText = (max = TEXT_MAX) =>
  z.string({ error: m.invalid }).trim().max(max, m.tooLong).optional().default('');

export const password = () =>
  z.string({ error: m.required }).min(1, m.required).min(PASSWORD_MIN, m.min).max(PASSWORD_MAX, m.max);

export const email = () =>
  z
    .string({ error: m.required })
    .trim()
    .min(1, m.required)
    .max(254, m.tooLong)
    .pipe(z.email({ error: m.email }));

/** Ids the client generates (docs/product.md §5): base64url, 8-16 characters. */
export const idField = () =>
  z
    .string({ error: m.required })
    .trim()
    .min(1, m.required)
    .max(64, m.tooLong)
    .regex(/^[A-Za-z0-9_-]+$/, m.invalid);

/** A yes/no flag the old console sent as boolean, number or string. */
export const flag = () =>
  z
    .union([z.boolean(), z.literal(0), z.literal(1), z.literal('0'), z.literal('1')], {
      error: m.invalid,
    })
    .transform((v) => v === true || v === 1 || v === '1');

/**
 * Forgiving input: what an operator types with a Japanese IME (full-width digits, ／ and －, 年月日) reads
 * as the plain form the contract checks, on the server and in the console alike.
 */
const DASHES = /[‐‑‒–—―−ー－ｰ]/g;
const LOCAL_DATE = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:(?:T| +)(\d{1,2}):(\d{2})(:\d{2}(?:\.\d{1,6})?)?)?$/;
const pad2 = (v: string) => v.padStart(2, '0');

/**
 * A typed date, or date and time without a zone, as 'YYYY-MM-DD' or 'YYYY-MM-DD HH:mm[:ss]':
 * NFKC (full-width digits and signs), '/', '.', '－' or 年/月/日 between the parts, one-digit months, days
 * and hours. Anything else (an ISO instant with its zone, or nonsense) comes back NFKC-trimmed, for the
 * caller's own check to accept or refuse.
 */
export function normalizeDateText(v: string): string {
  const s = v.normalize('NFKC').trim();
  const joined = s
    .replace(DASHES, '-')
    .replace(/(\d)\s*[/.年月]\s*(?=\d)/g, '$1-')
    .replace(/(\d)\s*日/, '$1');
  const d = LOCAL_DATE.exec(joined);
  if (!d) return s;
  const day = `${d[1]}-${pad2(d[2]!)}-${pad2(d[3]!)}`;
  return d[4] === undefined ? day : `${day} ${pad2(d[4])}:${d[5]}${d[6] ?? ''}`;
}

/** The example every phone message shows. */
export const PHONE_EXAMPLE = '090-1234-5678';

/**
 * A typed phone number in its one stored form: NFKC (full-width digits), any dash, space, dot or
 * bracket between digit groups as one '-', and an 11-digit mobile or IP number written without
 * separators grouped 3-4-4 (09012345678 → 090-1234-5678). Other groupings are the operator's; a
 * number that is not digits and separators comes back trimmed, for the check to refuse.
 */
export function normalizePhone(v: string): string {
  const s = v.normalize('NFKC').trim();
  if (!/^\+?[\d\s().\-‐‑‒–—―−ー－ｰ]*$/.test(s)) return s;
  const joined = s
    .replace(DASHES, '-')
    .replace(/[\s().]+/g, '-')
    .replace(/-+/g, '-')
    .replace(/^-|-$/g, '')
    .replace(/^\+-/, '+');
  const mobile = /^(0[2-9]0)(\d{4})(\d{4})$/.exec(joined);
  return mobile ? `${mobile[1]}-${mobile[2]}-${mobile[3]}` : joined;
}
