import { z } from 'zod';

/**
 * How values of the database leave the API. The server's repositories return rows as the
 * driver gives them (a timestamptz is a Date on PostgreSQL and PGlite, a string when it
 * came through JSON); a call's response schema shapes them when the route parses its
 * result. The web parses the same schemas from JSON, so each converter also takes what it
 * outputs.
 */

const CANONICAL = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
/** How PostgreSQL writes a timestamptz in JSON in a UTC session: '2026-11-26T23:56:58.593012+00:00'. */
const POSTGRES_UTC =
  /^(\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])T(?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d)(?:\.(\d{1,9}))?\+00:00$/;

/** A moment as the wire carries it: ISO 8601 in UTC with milliseconds; undefined for what is no moment. */
export function toWireTime(v: Date | string): string | undefined {
  if (typeof v === 'string') {
    if (CANONICAL.test(v)) return v;
    // Rewritten, not parsed: the fraction cut to milliseconds, as Date's parse does (rows read as JSON).
    const pg = POSTGRES_UTC.exec(v);
    if (pg) return `${pg[1]}.${`${pg[2] ?? ''}000`.slice(0, 3)}Z`;
  }
  const ms = (typeof v === 'string' ? new Date(v) : v).getTime();
  return Number.isNaN(ms) ? undefined : new Date(ms).toISOString();
}

/** toWireTime of a value that may be missing. */
export const toWireTimeOrNull = (v: Date | string | null): string | null =>
  v === null ? null : (toWireTime(v) ?? null);

/** A timestamp field of a response: takes a Date or a date string, gives ISO 8601 UTC ('2026-11-23T01:02:03.000Z'). */
export const timestamp = () =>
  z.codec(z.union([z.date(), z.string()]), z.string().meta({ format: 'date-time' }), {
    decode: (v, ctx) => {
      const out = toWireTime(v);
      if (out !== undefined) return out;
      ctx.issues.push({ code: 'invalid_format', format: 'datetime', input: String(v) });
      return z.NEVER;
    },
    encode: (s) => s,
  });

/** What a response schema takes before it shapes a value for the wire: rows as the database gives them. */
export type FromDb<S extends z.ZodType> = z.input<S>;
