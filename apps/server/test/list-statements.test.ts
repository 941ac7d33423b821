import {
  accountList,
  accountListCount,
  accountSearchColumns,
  accountSortColumns,
  carList,
  carListCount,
  carSearchColumns,
  carSortColumns,
  carUserSearchColumns,
  carUserSortColumns,
  deviceList,
  deviceListCount,
  deviceSearchColumns,
  deviceSortColumns,
  userList,
  userListCount,
  type Call,
} from '@fleet/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { statementCacheMode } from '../src/db/statement-cache.js';
import { fastLists } from '../src/http/list-query.js';
import {
  companyA,
  companyB,
  createSignedInApp,
  fleet,
  unchecked,
  type FixtureAccount,
  type SignedInApp,
} from './helper.js';

/**
 * A list's statement is compiled once per shape and filled with each call's company, companyId and
 * offset (db/statement-cache.ts, http/list-query.ts defineList with `fast`). Callers of different companies
 * asking the same shape one after the other each get their own company's rows and counts, the super admin the
 * company it narrows to, and every page its own offset: what production answers, with the cache's own check
 * off. Then, with the check on, every fast list is called through its sorts, searches, switches, callers and
 * pages, and each call's statement must equal a fresh compile with its own values.
 */
let t: SignedInApp;
const verify = statementCacheMode.verify;

beforeAll(async () => {
  t = await createSignedInApp(['superAdmin', 'adminA', 'managerA', 'adminB']);
  // Five more vehicles a company, so a company has pages of 2.
  await sql`INSERT INTO cars (car_id, company_id, car_number, is_delete, updated_at)
    SELECT 'stmt-' || c.k || '-' || i, c.company_id, 'n' || i, false, now()
    FROM (VALUES ('a', ${companyA}), ('b', ${companyB})) AS c(k, company_id), generate_series(1, 5) AS i`.execute(t.db);
  // The fixture vehicles' customers: one paying on time, one two months late (the vehicle keeps a copy).
  await sql`UPDATE car_users SET payment_log = CASE WHEN company_id = ${companyA} THEN 0 ELSE 2 END`.execute(t.db);
});
afterAll(async () => {
  statementCacheMode.verify = verify;
  await t?.close();
});

const companiesOf = (rows: readonly { company_id?: string | null }[]) => [...new Set(rows.map((r) => r.company_id))];

describe('list statements compiled by shape', () => {
  it("serves callers of each company, in turn, the same shapes with their own company's rows", async () => {
    const callers: [FixtureAccount, string][] = [
      ['adminA', companyA],
      ['adminB', companyB],
      ['managerA', companyA],
    ];
    for (let round = 0; round < 2; round++) {
      for (const [who, company] of callers) {
        for (const body of [
          { limit: 2, offset: 0 },
          { limit: 2, offset: 2 },
          { limit: 2, offset: 4, sorts: 'car_number desc' },
        ]) {
          const page = await t.call(carList, body, who);
          expect(page.status, page.raw.body).toBe(200);
          expect(page.body.list).toHaveLength(2);
          expect(companiesOf(page.body.list)).toEqual([company]);
        }
        expect((await t.call(carListCount, {}, who)).body.count).toBe(6);
        const customers = await t.call(userList, { limit: 20 }, who);
        expect(companiesOf(customers.body.list)).toEqual([company]);
        expect((await t.call(userListCount, {}, who)).body.count).toBe(1);
        const accounts = await t.call(accountList, { limit: 20 }, who);
        expect(companiesOf(accounts.body.list)).toEqual([company]);
      }
    }
  });

  it('gives every page its own offset, and the super admin the company it narrows to (or every one)', async () => {
    const pages: string[] = [];
    for (let offset = 0; offset < 6; offset += 2) {
      const page = await t.call(carList, { limit: 2, offset, companyId: companyB }, 'superAdmin');
      expect(companiesOf(page.body.list)).toEqual([companyB]);
      pages.push(...page.body.list.map((r) => r.car_id));
    }
    expect(new Set(pages).size).toBe(6);
    for (const company of [companyA, companyB]) {
      const page = await t.call(carList, { limit: 20, companyId: company }, 'superAdmin');
      expect(companiesOf(page.body.list)).toEqual([company]);
      expect((await t.call(carListCount, { companyId: company }, 'superAdmin')).body.count).toBe(6);
    }
    const all = await t.call(carList, { limit: 20 }, 'superAdmin');
    expect(companiesOf(all.body.list).sort()).toEqual([companyA, companyB]);
    // A company admin's companyId names nothing: its own company still.
    const held = await t.call(carList, { limit: 20, companyId: companyB }, 'adminA');
    expect(companiesOf(held.body.list)).toEqual([companyA]);
  });

  it("fills a search shape with each call's words: a substring, a pair of characters, an enum label", async () => {
    for (const [who, company, text, ids] of [
      ['adminA', companyA, 'stmt-a-1', ['stmt-a-1']],
      ['adminB', companyB, 'stmt-b-2', ['stmt-b-2']],
      ['adminA', companyA, 'stmt-b-2', []],
      ['superAdmin', null, '%', []],
      ['superAdmin', null, 'mt-b-3', ['stmt-b-3']],
    ] as const) {
      const body = { search_item: '0', search_text: text };
      const page = await t.call(carList, { ...body, limit: 20 }, who);
      expect(page.status, page.raw.body).toBe(200);
      expect(page.body.list.map((r) => r.car_id)).toEqual(ids);
      if (company) expect(companiesOf(page.body.list).filter((c) => c !== company)).toEqual([]);
      expect((await t.call(carListCount, body, who)).body.count).toBe(ids.length);
    }
    // Two characters go through the bigrams (their own shape); the same pair for two companies.
    for (const [who, company] of [
      ['adminA', companyA],
      ['adminB', companyB],
    ] as const) {
      const page = await t.call(carList, { search_item: '3', search_text: 'n4', limit: 20 }, who);
      expect(page.body.list.map((r) => [r.car_number, r.company_id])).toEqual([['n4', company]]);
    }
    // An enum column: the codes the words match are part of the shape.
    for (const [text, ids] of [
      ['2ヶ月', [fleet.B.car_id]],
      ['遅延なし', [fleet.A.car_id]],
      ['ヶ月以上', [fleet.B.car_id]],
    ] as const) {
      const late = await t.call(carList, { search_item: '4', search_text: text, limit: 20 }, 'superAdmin');
      expect(late.body.list.map((r) => r.car_id)).toEqual(ids);
    }
    const none = await t.call(carListCount, { search_item: '4', search_text: 'どれでもない' }, 'superAdmin');
    expect(none.body.count).toBe(0);
  });
});

/** Each fast list's calls and what its requests may vary (the contract's columns, the list's own switches). */
const fastListCalls: {
  list: Call;
  count: Call;
  search: readonly unknown[];
  sorts: readonly string[];
  switches: Record<string, unknown>[];
  /** The terminals are the super admin's alone (no company, so no narrowing either). */
  superAdminOnly?: true;
}[] = [
  {
    list: carList,
    count: carListCount,
    search: carSearchColumns,
    sorts: carSortColumns,
    switches: [{ isNormal: true }],
  },
  {
    list: userList,
    count: userListCount,
    search: carUserSearchColumns,
    sorts: carUserSortColumns,
    switches: [{ isRegistered: true }, { isRegistered: false }],
  },
  {
    list: deviceList,
    count: deviceListCount,
    search: deviceSearchColumns,
    sorts: deviceSortColumns,
    switches: [{ isRegistered: true }, { isRegistered: false }],
    superAdminOnly: true,
  },
  { list: accountList, count: accountListCount, search: accountSearchColumns, sorts: accountSortColumns, switches: [] },
];

describe('every fast list compiles each shape as a fresh compile with its values would', () => {
  it('answers its sorts, searches, switches, callers and pages from templates equal to a fresh compile', async () => {
    expect(fastLists).toHaveLength(fastListCalls.length);
    const before = fastLists.map((l) => l.statements.verified);
    statementCacheMode.verify = true;
    try {
      for (const { list, count, search, sorts, switches, superAdminOnly } of fastListCalls) {
        const filters: Record<string, unknown>[] = [
          {},
          { isDelete: true },
          ...switches,
          ...search.flatMap((_, i) => [
            { search_item: String(i), search_text: 'n4' },
            { search_item: String(i), search_text: 'stmt-a' },
          ]),
        ];
        const pages: Record<string, unknown>[] = [
          { limit: 2 },
          { limit: 2, offset: 2 },
          ...sorts.flatMap((c) => [
            { limit: 2, sorts: `${c} asc` },
            { limit: 2, offset: 2, sorts: `${c} desc` },
          ]),
        ];
        const callers: [FixtureAccount, Record<string, unknown>][] = superAdminOnly
          ? [['superAdmin', {}]]
          : [
              ['superAdmin', {}],
              ['superAdmin', { companyId: companyB }],
              ['adminA', {}],
              ['managerA', {}],
            ];
        for (const [who, narrowing] of callers) {
          for (const filter of filters) {
            const counted = await t.call(count, unchecked({ ...filter, ...narrowing }), who);
            expect(counted.status, `${count.path} ${JSON.stringify(filter)} ${counted.raw.body}`).toBe(200);
            for (const paging of filter === filters[0] ? pages : pages.slice(0, 2)) {
              const page = await t.call(list, unchecked({ ...filter, ...narrowing, ...paging }), who);
              expect(page.status, `${list.path} ${JSON.stringify({ ...filter, ...paging })} ${page.raw.body}`).toBe(
                200,
              );
            }
          }
        }
      }
    } finally {
      statementCacheMode.verify = false;
    }
    // Every fast list's cache compared its templates with fresh compiles.
    expect(fastLists.map((l, i) => l.statements.verified > before[i]!)).toEqual(fastLists.map(() => true));
  });
});
