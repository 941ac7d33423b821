import { carList, timestamp } from '@fleet/contract';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { responseOf } from './route.js';

const Row = z.object({ id: z.string(), n: z.number().int().min(0), at: timestamp(), note: z.string().nullable() });
const Answer = z.object({ list: z.array(Row) });

describe('responseOf: a result the schema would return as it is is taken as it came', () => {
  const answer = responseOf(Answer, false);
  const row = { id: 'C1', n: 3, at: '2026-11-28T01:02:03.000Z', note: null };

  it('takes a result already in its wire form as it is (the same object)', () => {
    const result = { list: [row, { ...row, id: 'C2' }] };
    expect(answer(result)).toBe(result);
  });

  it('strips a key the contract does not have (through the schema)', () => {
    const result = { list: [{ ...row, password_hash: 'secret' }] };
    const out = answer(result);
    expect(out).not.toBe(result);
    expect(out.list[0]).toEqual(row);
    expect(JSON.stringify(out)).not.toContain('secret');
  });

  it('writes a Date or a non-canonical time for the wire (through the schema)', () => {
    const at = new Date('2026-11-28T01:02:03Z');
    expect(answer({ list: [{ ...row, at }] }).list[0]!.at).toBe('2026-11-28T01:02:03.000Z');
    expect(answer({ list: [{ ...row, at: '2026-11-28T10:02:03+09:00' }] }).list[0]!.at).toBe(
      '2026-11-28T01:02:03.000Z',
    );
  });

  it('refuses what the schema refuses', () => {
    expect(() => answer({ list: [{ ...row, n: -1 }] })).toThrow();
    expect(() => answer({ list: [{ ...row, n: 1.5 }] })).toThrow();
    expect(() => answer({ list: [{ id: 'C1' }] })).toThrow();
  });

  it('under verification gives the same answer', () => {
    const verified = responseOf(Answer, true);
    const result = { list: [row] };
    expect(verified(result)).toBe(result);
  });

  it('compiles for the list answers of the console (a 20-row page is the case it serves)', () => {
    const list = responseOf(carList.response, false);
    const page = { list: [] };
    expect(list(page)).toBe(page);
  });
});
