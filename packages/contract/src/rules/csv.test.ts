import { describe, expect, it } from 'vitest';
import { CSV_BOM, csvField, csvRow, toCsv } from './csv.js';

describe('csvField', () => {
  it('writes plain values as they are and nothing for null', () => {
    expect(csvField('東京都港区')).toBe('東京都港区');
    expect(csvField(12.5)).toBe('12.5');
    expect(csvField(-139.7)).toBe('-139.7');
    expect(csvField(true)).toBe('true');
    expect(csvField(null)).toBe('');
    expect(csvField(undefined)).toBe('');
    expect(csvField(Number.NaN)).toBe('');
  });

  it('quotes commas, quotes and line breaks (RFC 4180)', () => {
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
  });

  it('writes objects as JSON, quoted', () => {
    expect(csvField({ rpm: 900, note: 'ok' })).toBe('"{""rpm"":900,""note"":""ok""}"');
    expect(csvField([1, 2])).toBe('"[1,2]"');
  });

  it.each(['=1+1', '+81', '-2', '@SUM(A1)', '\tx', '\rx', '\nx'])('neutralises a formula start in %j', (s) => {
    const out = csvField(s);
    const unquoted = out.startsWith('"') ? out.slice(1, -1) : out;
    expect(unquoted.startsWith("'")).toBe(true);
    expect(unquoted.slice(1)).toBe(s);
  });

  it('leaves text that only contains those characters later alone', () => {
    expect(csvField('a=b')).toBe('a=b');
  });
});

describe('toCsv', () => {
  it('starts with a byte-order mark and a header row, rows end in CRLF', () => {
    const csv = toCsv(['recorded_at', 'pids'], [['2026-11-23T01:00:00.000Z', { rpm: 800 }]]);
    expect(csv.startsWith(CSV_BOM)).toBe(true);
    expect(csv).toBe(`${CSV_BOM}recorded_at,pids\r\n2026-11-23T01:00:00.000Z,"{""rpm"":800}"\r\n`);
  });

  it('exports nothing when there are no rows', () => {
    expect(toCsv(['a'], [])).toBe('');
  });

  it('csvRow joins fields with commas', () => {
    expect(csvRow(['a', 1, null])).toBe('a,1,\r\n');
  });
});
