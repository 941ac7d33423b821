import { DummyDriver, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { MAX_SHAPES, createStatementCache, type StatementCacheMode } from './statement-cache.js';

interface Tables {
  cars: { car_id: string; company_id: string; is_delete: boolean };
}
const db = new Kysely<Tables>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (k) => new PostgresIntrospector(k),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
});

type Values = { company?: string | undefined; offset?: number | undefined };

/** A list-like statement: the company a parameter, an OFFSET only past the first page. */
const page = (v: Values) => {
  let q = db.selectFrom('cars').select('car_id').where('is_delete', '=', false);
  if (v.company !== undefined) q = q.where('company_id', '=', v.company);
  if (v.offset !== undefined && v.offset > 0) q = q.offset(v.offset);
  return q.limit(sql.lit(20)).compile();
};
const shapeOf = (v: Values) => JSON.stringify([v.company === undefined ? null : '?', (v.offset ?? 0) > 0]);
const mode = (m: Partial<StatementCacheMode> = {}): StatementCacheMode => ({ cache: true, verify: false, ...m });

describe('statement cache', () => {
  it('compiles a shape once and fills each call with its own values, as a compile with them would', () => {
    const cache = createStatementCache(mode());
    let builds = 0;
    const counted = (v: Values) => {
      builds++;
      return page(v);
    };
    for (const company of ['CO001', 'CO002', "x' or true --"]) {
      for (const offset of [20, 40]) {
        const v = { company, offset };
        const got = cache.compile(shapeOf(v), v, counted);
        const fresh = page(v);
        expect(got.sql).toBe(fresh.sql);
        expect(got.parameters).toEqual(fresh.parameters);
        expect(got.parameters).toEqual([false, company, offset]);
      }
    }
    expect(builds).toBe(1);
    expect(cache.size).toBe(1);
    // Another shape (no company, first page) is a template of its own.
    const all = cache.compile(shapeOf({}), {}, counted);
    expect(all.sql).toBe(page({}).sql);
    expect(all.sql).not.toContain('offset');
    expect(cache.size).toBe(2);
  });

  it('never keeps a shape whose values went into the text or into a parameter made from them', () => {
    const cache = createStatementCache(mode());
    const inText = (v: Values) =>
      db
        .selectFrom('cars')
        .select('car_id')
        .where(sql<boolean>`company_id = ${sql.lit(String(v.company))}`)
        .compile();
    const derived = (v: Values) =>
      db.selectFrom('cars').select('car_id').where('company_id', 'like', `%${v.company}%`).compile();
    const concatenated = (v: Values) =>
      db
        .selectFrom('cars')
        .select('car_id')
        .where('company_id', '=', 'CO' + v.company)
        .compile();
    for (const build of [inText, derived, concatenated]) {
      for (const company of ['A', 'B']) {
        const got = cache.compile(`s-${build.name}`, { company }, build);
        const fresh = build({ company });
        expect(got.sql).toBe(fresh.sql);
        expect(got.parameters).toEqual(fresh.parameters);
        expect(JSON.stringify(got)).not.toContain('\\u0000');
      }
    }
  });

  it('under verify, a build that branches on a value rather than using it fails the call instead of mixing callers', () => {
    const branching = (v: Values) =>
      db
        .selectFrom('cars')
        .select('car_id')
        .where('company_id', '=', v.company === 'CO001' ? 'CO001' : 'CO002')
        .compile();
    const verified = createStatementCache(mode({ verify: true }));
    expect(verified.compile('b', { company: 'CO002' }, branching).parameters).toEqual(['CO002']);
    expect(() => verified.compile('b', { company: 'CO001' }, branching)).toThrow(/compiles differently/);
  });

  it('compiles every call with its values when turned off, and past MAX_SHAPES shapes', () => {
    let builds = 0;
    const counted = (v: Values) => {
      builds++;
      return page(v);
    };
    const off = createStatementCache(mode({ cache: false }));
    off.compile('s', { company: 'A' }, counted);
    off.compile('s', { company: 'B' }, counted);
    expect(builds).toBe(2);
    expect(off.size).toBe(0);

    const full = createStatementCache(mode());
    for (let i = 0; i < MAX_SHAPES; i++) full.compile(`s${i}`, {}, page);
    builds = 0;
    const a = full.compile('one more', { company: 'A' }, counted);
    const b = full.compile('one more', { company: 'B' }, counted);
    expect(builds).toBe(2);
    expect(full.size).toBe(MAX_SHAPES);
    expect([a.parameters[1], b.parameters[1]]).toEqual(['A', 'B']);
  });
});
