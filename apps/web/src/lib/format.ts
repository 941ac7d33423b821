import { parseDateBound } from '@fleet/contract';

/** Display formats of docs/product.md §9. */
/** Two digits: 7 -> '07'. */
export const pad = (n: number) => String(n).padStart(2, '0');

/**
 * An instant shifted to Japan time (UTC+9, no summer time), to be read with the getUTC* methods. The
 * console shows and takes times in Japan time whatever the zone of the PC: the server reads a time
 * without zone as Japan time (a date filter, a reservation), and charts and file names are Japan time.
 */
export const inJapan = (d: Date) => new Date(d.getTime() + 9 * 3600_000);

/**
 * YYYY/MM/DD HH:mm in Japan time; '' for nothing. A string is read as the server reads it
 * (parseDateBound): with its zone, or without one (a datetime-local field's value) as Japan time; any
 * other form the browser reads with its zone.
 */
export function formatDateTime(v: string | Date | null | undefined): string {
  if (!v) return '';
  const at = v instanceof Date ? v : new Date(parseDateBound(v, 'from') ?? v);
  if (Number.isNaN(at.getTime())) return '';
  const d = inJapan(at);
  return `${d.getUTCFullYear()}/${pad(d.getUTCMonth() + 1)}/${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}`;
}

/** The value of a datetime-local field (YYYY-MM-DDTHH:mm) for an instant, in Japan time as the server reads it. */
export const japanInputValue = (at: Date): string => inJapan(at).toISOString().slice(0, 16);

/** Birthday YYYY年MM月DD日 from the form value YYYY-MM-DD. */
export function formatBirthday(v: string | null | undefined): string {
  const m = v ? /^(\d{4})-(\d{2})-(\d{2})/.exec(v) : null;
  return m ? `${m[1]}年${m[2]}月${m[3]}日` : '';
}

/** YYYYMMDDHHmm in Japan time, for file names (the console's users are in Japan whatever the PC's zone). */
export function fileStamp(at: Date = new Date()): string {
  const d = inJapan(at);
  return `${d.getUTCFullYear()}${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())}${pad(d.getUTCHours())}${pad(d.getUTCMinutes())}`;
}
