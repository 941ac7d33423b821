import { CSV_BOM, LOG_EXPORT_PATH, logExportHeader } from '@fleet/contract';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basic } from '../telemetry-support.js';
import { FUZZ_RUNS } from './fuzz.js';
import { createWorld, type World } from './world.js';

/**
 * CSV injection and quoting through the real export: what a terminal reports
 * (free text such as an error's detail) comes back as data a spreadsheet will
 * not run — a leading = + - @ tab CR or LF gets a ' in front — and the file is
 * RFC 4180: CRLF rows, fields with " , CR or LF quoted, quotes doubled.
 */
let w: World;
beforeAll(async () => {
  w = await createWorld();
});
afterAll(() => w?.t.close());

/** A strict RFC 4180 reader: throws on a quote inside an unquoted field or anything after a closing quote. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let i = 0;
  while (i < text.length) {
    const row: string[] = [];
    for (;;) {
      let field = '';
      if (text[i] === '"') {
        i++;
        for (;;) {
          if (i >= text.length) throw new Error('unterminated quoted field');
          if (text[i] === '"' && text[i + 1] === '"') {
            field += '"';
            i += 2;
          } else if (text[i] === '"') break;
          else field += text[i++];
        }
        i++;
        if (i < text.length && text[i] !== ',' && !text.startsWith('\r\n', i))
          throw new Error(`text after a closing quote at ${i}`);
      } else {
        while (i < text.length && text[i] !== ',' && !text.startsWith('\r\n', i)) {
          if (text[i] === '"' || text[i] === '\r' || text[i] === '\n')
            throw new Error(`unquoted ${JSON.stringify(text[i])} at ${i}`);
          field += text[i++];
        }
      }
      row.push(field);
      if (text[i] === ',') i++;
      else break;
    }
    if (!text.startsWith('\r\n', i)) throw new Error(`row not ended by CRLF at ${i}`);
    i += 2;
    rows.push(row);
  }
  return rows;
}

/** What a cell must read: a formula start neutralised with a leading quote, nothing else changed. */
const neutralised = (s: string) => (/^[=+\-@\t\r\n]/.test(s) ? `'${s}` : s);

let seq = 0;
let terminal: { car_device_id: string; car_data_id: string };
let minute = 0;

/** A terminal on a company-A vehicle reports these details (errors, and sensor readings holding them); a common user exports both logs. */
async function roundTrip(details: string[]) {
  const car = await w.fresh.car('own');
  terminal = { car_device_id: car.car_device_id!, car_data_id: car.car_data_id! };
  const base = Date.now() - 3600_000;
  const time = (i: number) => new Date(base + (minute++ + i) * 1000).toISOString();
  const records = details.flatMap((detail, i) => [
    { type: 'error', time: time(i), error_type: 'sensor', status_code: 1002, detail },
    { type: 'sensor', time: time(i), readings: { note: detail } },
  ]);
  const res = await w.app.inject({
    method: 'POST',
    url: '/device/v1/batch',
    payload: { seq: ++seq, records },
    headers: { authorization: basic(terminal.car_device_id) },
  });
  expect(res.json().accepted, res.body).toBe(records.length);
  const exported = async (kind: 'error' | 'sensor') => {
    const csv = await w.app.inject({
      method: 'GET',
      url: LOG_EXPORT_PATH,
      query: { kind, car_data_id: terminal.car_data_id },
      headers: { authorization: `Bearer ${w.tokens.staffA}` },
    });
    expect(csv.statusCode, csv.body).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.body.startsWith(CSV_BOM)).toBe(true);
    // Newest first, as on screen: turned back into the order the terminal sent.
    const [head, ...rows] = parseCsv(csv.body.slice(CSV_BOM.length));
    return [head!, ...rows.reverse()];
  };
  return { errors: await exported('error'), sensors: await exported('sensor') };
}

describe('CSV export', () => {
  const dangerous = [
    '=1+1',
    '+1',
    '-1',
    '@SUM(A1:A2)',
    '\t=1',
    '\r=1',
    '\n=1',
    '=HYPERLINK("http://evil.example/","x")',
    "=cmd|' /C calc'!A0",
    "-2+3+cmd|' /C calc'!A0",
  ];
  const awkward = [
    'a,b',
    'say "hi"',
    'line1\r\nline2',
    'line1\nline2',
    '"',
    ',',
    'plain',
    '日本語の詳細',
    ' =not at the start',
    "'=already quoted",
  ];

  it('neutralises every field starting with = + - @ tab CR or LF and quotes per RFC 4180', async () => {
    const { errors, sensors } = await roundTrip([...dangerous, ...awkward]);
    expect(errors[0]).toEqual(logExportHeader('error'));
    const details = errors.slice(1).map((r) => r[3]);
    expect(details).toEqual([...dangerous, ...awkward].map(neutralised));
    for (const cell of details.slice(0, dangerous.length)) expect(cell!.startsWith("'")).toBe(true);
    // Objects (the keys without a column of their own) are written as JSON, which starts with '{': never a formula, the text inside intact.
    expect(sensors.slice(1).map((r) => JSON.parse(r[4]!) as unknown)).toEqual(
      [...dangerous, ...awkward].map((note) => ({ note })),
    );
  });

  it('keeps the same promise for any text a terminal sends', async () => {
    const char = fc.constantFrom(
      '=',
      '+',
      '-',
      '@',
      '\t',
      '\r',
      '\n',
      '"',
      ',',
      ';',
      "'",
      ' ',
      'a',
      'Z',
      '0',
      'あ',
      '漢',
      '😀',
    );
    const detail = fc.string({ unit: char, maxLength: 40 });
    await fc.assert(
      fc.asyncProperty(fc.array(detail, { minLength: 1, maxLength: 6 }), async (texts) => {
        const { errors, sensors } = await roundTrip(texts);
        expect(errors.slice(1).map((r) => r[3])).toEqual(texts.map(neutralised));
        expect(errors.slice(1).every((r) => r.length === logExportHeader('error').length)).toBe(true);
        expect(sensors.slice(1).map((r) => (JSON.parse(r[4]!) as { note: string }).note)).toEqual(texts);
      }),
      { numRuns: Math.max(20, Math.round(FUZZ_RUNS / 5)) },
    );
  }, 120_000);
});
