/** Display formats of SPEC.md §9. */
const pad = (n: number) => String(n).padStart(2, '0');

/** YYYY/MM/DD HH:mm in the browser's time zone; '' for nothing. */
export function formatDateTime(v: string | Date | null | undefined): string {
  if (!v) return '';
  const d = v instanceof Date ? v : new Date(v);
  if (Number.isNaN(d.getTime())) return '';
  return `${d.getFullYear()}/${pad(d.getMonth() + 1)}/${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** Birthday YYYY年MM月DD日 from the form value YYYY-MM-DD. */
export function formatBirthday(v: string | null | undefined): string {
  const m = v ? /^(\d{4})-(\d{2})-(\d{2})/.exec(v) : null;
  return m ? `${m[1]}年${m[2]}月${m[3]}日` : '';
}

/** YYYYMMDDHHmm in Japan time, for file names (the console's users are in Japan whatever the PC's zone). */
export function fileStamp(at: Date = new Date()): string {
  const d = new Date(at.getTime() + 9 * 3600_000);
  return `${d.getUTCFullYear()}${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())}${pad(d.getUTCHours())}${pad(d.getUTCMinutes())}`;
}
