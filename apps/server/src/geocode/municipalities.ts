import { MUNICIPALITY_LINES } from './municipalities.data.js';

export interface Municipality {
  prefecture: string;
  /** The municipality, a 政令指定都市's ward with its city's name before it (大阪市北区). */
  name: string;
}

let table: Map<string, Municipality> | undefined;

/** The code table, read from its lines once on first use. */
function municipalities(): Map<string, Municipality> {
  if (table) return table;
  table = new Map();
  for (const line of MUNICIPALITY_LINES.split('\n')) {
    const [code, prefecture, name] = line.split('\t');
    if (code && prefecture && name) table.set(code, { prefecture, name });
  }
  return table;
}

/**
 * The prefecture and municipality of a 全国地方公共団体コード: five digits, or six with the check digit, or four
 * when a leading zero was lost (北海道's codes begin with 0). Undefined for a code not in the table.
 */
export function municipalityOf(code: string | number | null | undefined): Municipality | undefined {
  const digits = String(code ?? '').trim();
  if (!/^\d{4,6}$/.test(digits)) return undefined;
  const five = digits.length === 6 ? digits.slice(0, 5) : digits.padStart(5, '0');
  return municipalities().get(five);
}
