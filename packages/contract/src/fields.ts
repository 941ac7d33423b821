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
