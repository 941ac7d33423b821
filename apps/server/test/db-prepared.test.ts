import { carList, carListCount } from '@fleet/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { executePrepared, MAX_PREPARED_TEXTS, preparedTexts } from '../src/db/prepared.js';
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
afterAll(() => t?.close());

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
