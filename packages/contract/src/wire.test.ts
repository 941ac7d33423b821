import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AccountDetail } from './account.js';
import { timestamp, toWireTime } from './wire.js';

describe('timestamp()', () => {
  const Row = z.object({ at: timestamp(), maybe: timestamp().nullable() });

  it('shapes a Date of the database as ISO 8601 UTC', () => {
    expect(Row.parse({ at: new Date(Date.UTC(2026, 10, 23, 1, 2, 3, 4)), maybe: null })).toEqual({
      at: '2026-11-23T01:02:03.004Z',
      maybe: null,
    });
  });

  it('takes the ISO string it gives (the web parses the JSON with the same schema), and other zones', () => {
    expect(Row.parse({ at: '2026-11-23T01:02:03.004Z', maybe: '2026-11-23 10:02:03+09' })).toEqual({
      at: '2026-11-23T01:02:03.004Z',
      maybe: '2026-11-23T01:02:03.000Z',
    });
  });

  it("gives PostgreSQL's JSON times (a UTC session) what Date's parse gives them, the fraction cut to milliseconds", () => {
    const written = [
      '2026-11-26T23:56:58.593012+00:00',
      '2026-11-26T23:56:58.999999+00:00',
      '2026-01-01T00:00:00+00:00',
      '2026-01-01T00:00:00.5+00:00',
      '2026-01-01T00:00:00.12+00:00',
      '0099-01-01T00:00:00.5+00:00',
      '2024-02-29T23:59:59.123456789+00:00',
    ];
    for (const v of written) expect(toWireTime(v), v).toBe(new Date(v).toISOString());
    // Not that shape (another zone, an impossible hour): parsed as before.
    expect(toWireTime('2026-01-01T09:00:00+09:00')).toBe('2026-01-01T00:00:00.000Z');
    expect(toWireTime('2026-01-01T25:00:00+00:00')).toBeUndefined();
  });

  it('refuses what is no moment with an issue, not an exception', () => {
    const r = Row.safeParse({ at: 'yesterday', maybe: new Date(Number.NaN) });
    expect(r.success).toBe(false);
    expect(r.error?.issues.map((i) => i.path.join('.'))).toEqual(['at', 'maybe']);
    expect(toWireTime('yesterday')).toBeUndefined();
  });

  it('is what a detail response carries: a repository row goes out as the wire shape', () => {
    const row = {
      account_id: 'a',
      name: 'n',
      email: 'e@example.jp',
      role: 2,
      company_id: null,
      company_name: null,
      engine_control: false,
      isDelete: false,
      created_at: new Date('2026-11-23T00:00:00Z'),
      updated_at: '2026-11-24 09:00:00+09',
    };
    expect(AccountDetail.parse(row)).toMatchObject({
      created_at: '2026-11-23T00:00:00.000Z',
      updated_at: '2026-11-24T00:00:00.000Z',
    });
  });
});
