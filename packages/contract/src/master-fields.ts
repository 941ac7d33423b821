import { z } from 'zod';
import { idField, normalizeDateText, normalizePhone, PASSWORD_MAX, PASSWORD_MIN, PHONE_EXAMPLE } from './fields.js';
import { validationMessages as m } from './messages.js';
import { ADDRESS_LIST_MAX, parseAddressList } from './address-list.js';

/**
 * Field builders of the master-data forms (accounts, companies, customers,
 * terminals, vehicles). docs/product.md §5 leaves these rules "not shown"; the choices
 * are written down in docs/decisions.md.
 */
export const fieldMessages = {
  postal: '郵便番号の形式が不正です（例: 123-4567）',
  phone: `電話番号の形式が不正です（例: ${PHONE_EXAMPLE}）`,
  imei: 'IMEIは15桁の数字で入力してください',
  ipaddr:
    'IPアドレスの形式が不正です。アドレスかCIDR（例: 203.0.113.5、203.0.113.0/24、2001:db8::/32）を、複数はカンマで区切って入力してください',
  macaddr: 'MACアドレスの形式が不正です（例: 02:1A:7F:00:00:01）',
  latitude: '緯度は-90〜90の範囲で入力してください',
  longitude: '経度は-180〜180の範囲で入力してください',
  minBelowMax: '最小値より大きい値を入力してください',
  choice: '選択肢から選んでください',
  sort: '並び替えの項目が不正です',
  searchItem: '検索項目が不正です',
} as const;

/** '' / null / absent all mean "not set" (null) in the optional fields below. */
const unset = [z.literal(''), z.null()] as const;
const orNull = <T>(v: T | '' | null | undefined): T | null => (v === '' || v === undefined ? null : v);

/** A code from a select box: a number, or its digits as a string (HTML selects give strings). */
export const intCode = (min: number, max: number) =>
  z
    .union(
      [
        z.number(),
        z
          .string()
          .trim()
          .regex(/^-?\d+$/, fieldMessages.choice),
      ],
      {
        error: (i) => (i.input === undefined ? m.required : fieldMessages.choice),
      },
    )
    .transform(Number)
    .pipe(z.number().int(fieldMessages.choice).min(min, fieldMessages.choice).max(max, fieldMessages.choice));

/** Like intCode, but '' / null / absent mean "not chosen" (null). */
export const optionalIntCode = (min: number, max: number) =>
  z
    .union(
      [
        ...unset,
        z.number(),
        z
          .string()
          .trim()
          .regex(/^-?\d+$/, fieldMessages.choice),
      ],
      { error: fieldMessages.choice },
    )
    .optional()
    .transform((v) => (v === '' || v === null || v === undefined ? null : Number(v)))
    .pipe(
      z.number().int(fieldMessages.choice).min(min, fieldMessages.choice).max(max, fieldMessages.choice).nullable(),
    );

/** An id that may be left empty (null), e.g. a company or terminal not chosen. */
export const nullableId = () =>
  z
    .union([...unset, idField()], { error: m.invalid })
    .optional()
    .transform(orNull);

/** Optional text that, when given, must pass a check ('' when absent). */
const checkedText = (ok: (v: string) => boolean, message: string, max: number) =>
  z
    .string({ error: m.invalid })
    .trim()
    .max(max, m.tooLong)
    .refine((v) => v === '' || ok(v), message)
    .optional()
    .default('');
export const patternText = (re: RegExp, message: string, max = 64) => checkedText((v) => re.test(v), message, max);

export const postalCode = () => patternText(/^\d{3}-?\d{4}$/, fieldMessages.postal, 8);
/** A phone number in its one stored form (normalizePhone): digits in groups joined by '-', maybe a leading '+'. */
export const phoneNumber = () =>
  z
    .string({ error: m.invalid })
    .transform(normalizePhone)
    .pipe(
      z
        .string()
        .max(20, m.tooLong)
        .refine(
          (v) => v === '' || (/^\+?\d+(-\d+)*$/.test(v) && v.replace(/\D/g, '').length >= 6),
          fieldMessages.phone,
        ),
    )
    .optional()
    .default('');
export const optionalEmail = () => checkedText((v) => z.email().safeParse(v).success, m.email, 254);

/** IMEI: exactly 15 digits. The Luhn check digit is not verified (docs/decisions.md). */
export const imei = () =>
  z
    .string({ error: m.required })
    .trim()
    .min(1, m.required)
    .regex(/^\d{15}$/, fieldMessages.imei);

/**
 * A terminal id of any protocol (10-20 digits); the form checks the protocol's own rule
 * (terminal-protocol.ts terminalIdRules) on top.
 */
export const terminalId = () =>
  z
    .string({ error: m.required })
    .trim()
    .min(1, m.required)
    .regex(/^\d{10,20}$/, '端末IDは10〜20桁の数字で入力してください');

/** A terminal's source-address allow-list: addresses and CIDR blocks, comma-separated (address-list.ts). */
export const ipAddress = () => checkedText((v) => parseAddressList(v) !== null, fieldMessages.ipaddr, ADDRESS_LIST_MAX);
export const macAddress = () => patternText(/^[0-9A-Fa-f]{2}([:-][0-9A-Fa-f]{2}){5}$/, fieldMessages.macaddr, 17);

/** A new password on edit forms: '' (or absent) keeps the current one. */
export const optionalPassword = () =>
  z
    .string({ error: m.invalid })
    .optional()
    .default('')
    .superRefine((v, ctx) => {
      if (v === '') return;
      if (v.length < PASSWORD_MIN) ctx.addIssue({ code: 'custom', message: m.min });
      else if (v.length > PASSWORD_MAX) ctx.addIssue({ code: 'custom', message: m.max });
    });

const isRealDate = (v: string) => {
  const d = new Date(`${v}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === v;
};
const today = () => new Date().toISOString().slice(0, 10);

/**
 * Birthday 'YYYY-MM-DD' (docs/product.md §9), a real date from 1900-01-01 to today; '' means unknown (null).
 * Typed forms normalizeDateText reads (1985/4/12, full-width digits, 1985年4月12日) are taken as that date.
 */
export const birthday = () =>
  z
    .union(
      [
        ...unset,
        z
          .string()
          .transform(normalizeDateText)
          .pipe(
            z
              .string()
              .regex(/^\d{4}-\d{2}-\d{2}$/, m.date)
              .refine(isRealDate, m.date)
              .refine((v) => v >= '1900-01-01', m.minValue)
              .refine((v) => v <= today(), m.maxValue),
          ),
      ],
      { error: m.date },
    )
    .optional()
    .transform(orNull);

/** A coordinate typed into a form: number or numeric string; '' / null means "not set". */
export const coordinate = (bound: number, message: string) =>
  z
    .union(
      [
        ...unset,
        z.number(),
        z
          .string()
          .trim()
          .regex(/^-?\d+(\.\d+)?$/, m.number),
      ],
      { error: m.number },
    )
    .optional()
    .transform((v) => (v === '' || v === null || v === undefined ? null : Number(v)))
    .pipe(z.number().min(-bound, message).max(bound, message).nullable());

/** The "customer is on a vehicle" / "terminal is on a vehicle" filter: absent means all. */
export const isRegisteredFilter = z.boolean({ error: m.invalid }).nullish();

export const ExistCheckResponse = z.object({ isExist: z.boolean() });
