/** Shared pieces of every mail's Japanese text. */
const JST_OFFSET_MS = 9 * 3600_000;
const pad = (n: number) => String(n).padStart(2, '0');

/** YYYY/MM/DD HH:mm in Japan time (docs/product.md §9); Japan has no daylight saving time. */
export function formatJst(at: Date | string): string {
  const d = new Date(new Date(at).getTime() + JST_OFFSET_MS);
  return `${d.getUTCFullYear()}/${pad(d.getUTCMonth() + 1)}/${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}`;
}

export const mapLink = (lat: number, lng: number) =>
  `https://www.google.com/maps?q=${lat.toFixed(6)},${lng.toFixed(6)}`;

export const MAIL_FOOTER = [
  '',
  '――――――――――――――――',
  'このメールは送信専用のアドレスから自動で送信しています。返信はできません。',
  'フリートコンソール',
].join('\n');
