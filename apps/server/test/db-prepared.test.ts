import { carList, carListCount, CarListCountRequest, CarListRequest } from '@fleet/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import type { Access } from '../src/access/access.js';
import { countCars, listCars } from '../src/car/car.repository.js';
import { openDatabase } from '../src/db/database.js';
import { executePrepared, forgetPreparedTexts, MAX_PREPARED_TEXTS, preparedTexts } from '../src/db/prepared.js';
import { urlForDatabase } from './databases.js';
import { companyA } from './fixture-data.js';
import { createSignedInApp, type SignedInApp } from './helper.js';

/**
 * Prepared statements (db/prepared.ts): a list's page and count without a search are planned once per
 * connection on PostgreSQL; a search is planned with its words every time; the named texts stay bounded
 * whatever the requests send; PGlite runs every text unnamed.
 */
const onPostgres = !!inject('databaseUrl');
let t: SignedInApp;

beforeAll(async () => {
  t = await createSignedInApp(['superAdmin']);
});
// The names are the process's, and a worker runs many files (isolate: false): each test starts with none,
// and the cap test's 500 names do not reach the files after this one.
beforeEach(forgetPreparedTexts);
afterAll(async () => {
  forgetPreparedTexts();
  await t?.close();
});

/** The statements prepared on one connection, and a run of `text` through executePrepared on it. */
async function onOneConnection(run: (conn: typeof t.db) => Promise<unknown>) {
  return t.db.connection().execute(async (conn) => {
    const result = await run(conn);
    const { rows } = await sql<{ statement: string }>`SELECT statement FROM pg_prepared_statements`.execute(conn);
    return { result, statements: rows.map((r) => r.statement) };
  });
}

describe('list calls', () => {
  it('a page and a count without a search get a name on PostgreSQL (none on PGlite); a search does not', async () => {
    const before = preparedTexts();
    const page = await t.call(carList, { limit: 20, sorts: 'car_number desc' }, 'superAdmin');
    expect(page.status, page.raw.body).toBe(200);
    const count = await t.call(carListCount, {}, 'superAdmin');
    expect(count.status).toBe(200);
    expect(preparedTexts() - before).toBe(onPostgres ? 2 : 0);

    const named = preparedTexts();
    const search = { search_item: '0', search_text: page.body.list[0]!.car_id };
    const found = await t.call(carList, { ...search, limit: 20, sorts: 'car_number desc' }, 'superAdmin');
    expect(found.body.list.map((r) => r.car_id)).toEqual([page.body.list[0]!.car_id]);
    expect((await t.call(carListCount, search, 'superAdmin')).body.count).toBe(1);
    expect(preparedTexts()).toBe(named);

    // The second call of the same text answers the same from its cached plan.
    const again = await t.call(carList, { limit: 20, sorts: 'car_number desc' }, 'superAdmin');
    expect(again.body).toEqual(page.body);
  });
});

describe.runIf(onPostgres)('list statements on PostgreSQL', () => {
  it('a page and a count without a search run from one generic plan once PostgreSQL has tried five custom ones', async () => {
    // A bound LIMIT makes every custom plan look cheaper than the generic one (which must assume any
    // limit), so PostgreSQL would plan the page again on every call: the limit is written into the text.
    // A fleet's worth of vehicles (with a handful every plan costs the same), analysed as autovacuum would.
    await sql`INSERT INTO cars (car_id, company_id, is_delete, updated_at)
      SELECT 'plan-' || lpad(i::text, 5, '0'), CASE WHEN i % 2 = 0 THEN ${companyA} END, false, now()
      FROM generate_series(1, 5000) AS i`.execute(t.db);
    await sql`ANALYZE cars`.execute(t.db);
    const { rows } = await sql<{ name: string }>`SELECT current_database() AS name`.execute(t.db);
    const one = await openDatabase({ url: urlForDatabase(inject('databaseUrl'), rows[0]!.name), poolSize: 1 });
    try {
      for (const company of [null, companyA]) {
        // Only `company` and `groups` (null: not limited) of the caller's access reach the repository's statements.
        const scope = { company, groups: null } as Access;
        for (let i = 0; i < 8; i++) {
          const page = await listCars(one.db, scope, CarListRequest.parse({ limit: 20 }));
          expect(page.length).toBeGreaterThan(0);
          expect(await countCars(one.db, scope, CarListCountRequest.parse({}))).toBeGreaterThanOrEqual(page.length);
        }
      }
      const plans = await sql<{ statement: string; generic_plans: number; custom_plans: number }>`
        SELECT statement, generic_plans::int, custom_plans::int FROM pg_prepared_statements
        WHERE statement LIKE '%from "cars" as "c"%' OR statement LIKE '%from "list_counts" as "t"%'`.execute(one.db);
      // the page and the count (from the vehicles' tally, migration list_counts), each for every company and for one
      expect(plans.rows).toHaveLength(4);
      expect(plans.rows.filter((p) => p.generic_plans === 0).map((p) => p.statement)).toEqual([]);
    } finally {
      await one.close();
      await sql`DELETE FROM cars WHERE car_id LIKE 'plan-%'`.execute(t.db);
    }
  });
});

describe.runIf(onPostgres)('executePrepared on PostgreSQL', () => {
  it('prepares a text once per connection and answers as the unnamed statement does', async () => {
    const query = () => sql<{ n: number }>`SELECT ${41}::int + 1 AS n, 'prepared-test-1' AS tag`.compile(t.db);
    const { result, statements } = await onOneConnection(async (conn) => {
      const first = await executePrepared(conn, query(), true);
      const second = await executePrepared(conn, query(), true);
      return [first.rows, second.rows, (await conn.executeQuery(query())).rows];
    });
    expect(result).toEqual([
      [{ n: 42, tag: 'prepared-test-1' }],
      [{ n: 42, tag: 'prepared-test-1' }],
      [{ n: 42, tag: 'prepared-test-1' }],
    ]);
    expect(statements.filter((s) => s.includes('prepared-test-1'))).toHaveLength(1);
  });

  it('names at most MAX_PREPARED_TEXTS texts: past them a text runs unnamed, and still answers', async () => {
    const text = (i: number) => sql<{ i: number }>`SELECT ${i}::int AS i, ${sql.lit(`cap-test-${i}`)} AS tag`;
    const { result, statements } = await onOneConnection(async (conn) => {
      const answers: number[] = [];
      for (let i = 0; preparedTexts() < MAX_PREPARED_TEXTS; i++)
        answers.push((await executePrepared(conn, text(i).compile(conn), true)).rows[0]!.i);
      const past = await executePrepared(conn, text(-1).compile(conn), true);
      return { answers: answers.length, past: past.rows[0]!.i };
    });
    expect(result).toMatchObject({ past: -1 });
    expect(preparedTexts()).toBe(MAX_PREPARED_TEXTS);
    expect(statements.some((s) => s.includes("'cap-test-0'"))).toBe(true);
    expect(statements.some((s) => s.includes("'cap-test--1'"))).toBe(false);
  });
});
