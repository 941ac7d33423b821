/**
 * CSV of the log exports (docs/product.md §4): a byte-order mark so spreadsheet
 * software reads UTF-8, a header row, object values written as JSON, fields
 * quoted as RFC 4180 says, rows ended with CRLF. Nothing at all for no rows.
 */
export const CSV_BOM = '\uFEFF';
export const CSV_EOL = '\r\n';

/**
 * Text a spreadsheet would run as a formula (OWASP "CSV injection") gets a
 * leading single quote. Numbers are data, so a negative number stays as it is.
 */
const FORMULA_START = /^[=+\-@\t\r\n]/;

export function csvField(value: unknown): string {
  if (value === null || value === undefined) return '';
  let text: string;
  if (typeof value === 'string') text = FORMULA_START.test(value) ? `'${value}` : value;
  else if (typeof value === 'number') text = Number.isFinite(value) ? String(value) : '';
  else if (typeof value === 'boolean' || typeof value === 'bigint') text = String(value);
  else if (value instanceof Date) text = value.toISOString();
  else text = JSON.stringify(value) ?? '';
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export const csvRow = (values: readonly unknown[]): string => values.map(csvField).join(',') + CSV_EOL;

/** The whole file for rows already in memory; '' when there are none. */
export function toCsv(header: readonly string[], rows: readonly (readonly unknown[])[]): string {
  if (rows.length === 0) return '';
  return CSV_BOM + csvRow(header) + rows.map(csvRow).join('');
}
