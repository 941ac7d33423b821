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
