import { accountList, accountListCount, carList, carListCount, deviceListCount, userListCount } from '@fleet/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recountLists } from '../src/db/list-counts.js';
import { countedLists } from '../src/db/migrations/2026_12_16_090000_list_counts.js';
import { REVERSE_FROM } from '../src/http/list-query.js';
import { companyA, companyB, createSignedInApp, fleet, type FixtureAccount, type SignedInApp } from './helper.js';

/**
 * The lists' counts kept by triggers (migration list_counts) and what reads them (http/list-query.ts `tally`):
 * after any write the sum of the deltas is what counting the table gives, for every company, role and deletion
 * flag; the count calls answer from it; the job sums it again from the tables; a page past the middle of a long
 * list, read from its end, holds the rows a forward read holds.
 */
let t: SignedInApp;

beforeAll(async () => {
  t = await createSignedInApp(['superAdmin', 'adminA', 'managerA', 'adminB']);
});
afterAll(() => t?.close());

type Group = { company_id: string | null; role: number | null; is_delete: boolean; n: number };
const byKey = (rows: Group[]) =>
  Object.fromEntries(
    rows.filter((r) => r.n !== 0).map((r) => [`${r.company_id}|${r.role}|${r.is_delete}`, r.n] as const),
  );

/** Per list: the deltas summed by company, role and flag, and the table counted the same way. */
async function tallyAndTable(list: (typeof countedLists)[number]) {
  const tally = await sql<Group>`SELECT company_id, role, is_delete, sum(n)::int AS n FROM list_counts
    WHERE list = ${list.list} GROUP BY 1, 2, 3`.execute(t.db);
  const table = await sql<Group>`SELECT ${sql.raw(list.company)} AS company_id, ${sql.raw(list.role)} AS role,
    is_delete, count(*)::int AS n FROM ${sql.table(list.list)} GROUP BY 1, 2, 3`.execute(t.db);
  return { tally: byKey(tally.rows), table: byKey(table.rows) };
}

async function expectTalliesExact() {
  for (const list of countedLists) {
    const { tally, table } = await tallyAndTable(list);
    expect(tally, list.list).toEqual(table);
  }
}

describe('list counts kept by triggers', () => {
  it('agree with the tables after inserts, moves, deletions, role changes and a rolled-back write', async () => {
    await expectTalliesExact();
    await sql`INSERT INTO cars (car_id, company_id, car_number, is_delete, updated_at)
      SELECT 'tally-' || i, CASE WHEN i % 3 = 0 THEN ${companyB} ELSE ${companyA} END, 'n' || i, i % 7 = 0, now()
      FROM generate_series(1, 40) AS i`.execute(t.db);
    await sql`INSERT INTO car_users (user_id, company_id, first_name, name, updated_at)
      SELECT 'tally-u' || i, ${companyA}, '太郎', '集計', now() FROM generate_series(1, 9) AS i`.execute(t.db);
    await sql`INSERT INTO devices (car_device_id, password_hash, car_data_id, updated_at)
      SELECT 'tally-d' || i, 'x', '35999990000' || lpad(i::text, 4, '0'), now() FROM generate_series(1, 12) AS i`.execute(
      t.db,
    );
    await expectTalliesExact();
    // moves between companies, deletions (logical and real), an account's role
    await sql`UPDATE cars SET company_id = ${companyB} WHERE car_id IN ('tally-1', 'tally-2')`.execute(t.db);
    await sql`UPDATE cars SET is_delete = true WHERE car_id LIKE 'tally-1%'`.execute(t.db);
    await sql`UPDATE cars SET car_number = 'renamed' WHERE car_id = 'tally-4'`.execute(t.db);
    await sql`DELETE FROM cars WHERE car_id IN ('tally-5', 'tally-6', 'tally-7')`.execute(t.db);
    await sql`UPDATE car_users SET is_delete = true WHERE user_id = 'tally-u1'`.execute(t.db);
    await sql`DELETE FROM devices WHERE car_device_id = 'tally-d1'`.execute(t.db);
    await sql`UPDATE accounts SET role = 1 WHERE account_id = 'staff-a'`.execute(t.db);
    await sql`UPDATE accounts SET company_id = ${companyB}, is_delete = true WHERE account_id = 'staff-a'`.execute(
      t.db,
    );
    await expectTalliesExact();
    // A write rolled back takes its deltas with it.
    await t.db
      .transaction()
      .execute(async (tx) => {
        await sql`INSERT INTO cars (car_id, company_id, car_number, updated_at) VALUES ('tally-gone', ${companyA}, 'x', now())`.execute(
          tx,
        );
        throw new Error('rolled back');
      })
      .catch(() => undefined);
    await expectTalliesExact();
    await sql`UPDATE accounts SET role = 2, company_id = ${companyA}, is_delete = false WHERE account_id = 'staff-a'`.execute(
      t.db,
    );
    await expectTalliesExact();
  });

  it('are what the count calls answer, for each caller and filter, as counting the rows gives', async () => {
    // A delta no write made: the count calls read it (and the job below takes it away again).
    await sql`INSERT INTO list_counts (list, company_id, role, is_delete, n) VALUES ('cars', ${companyA}, null, false, 1000)`.execute(
      t.db,
    );
    const counted = async (table: string, where: string) =>
      Number(
        (
          await sql<{ n: number }>`SELECT count(*)::int AS n FROM ${sql.table(table)} WHERE ${sql.raw(where)}`.execute(
            t.db,
          )
        ).rows[0]!.n,
      );
    const liveA = await counted('cars', `company_id = '${companyA}' AND NOT is_delete`);
    expect((await t.call(carListCount, {}, 'adminA')).body.count).toBe(liveA + 1000);
    // Narrowed to normal terminals, the rows are counted (the tally does not know a terminal's state).
    expect((await t.call(carListCount, { isNormal: true }, 'adminA')).body.count).toBeLessThan(liveA + 1000);

    expect(await recountLists(t.db)).toBe(true);
    await expectTalliesExact();
    const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM list_counts`.execute(t.db);
    // One row per company, role and flag a list holds: the deltas summed up.
    expect(rows[0]!.n).toBeLessThanOrEqual(16);

    const cases: [FixtureAccount, Record<string, unknown>, string, string][] = [
      ['superAdmin', {}, 'cars', 'NOT is_delete'],
      ['superAdmin', { isDelete: true }, 'cars', 'true'],
      ['superAdmin', { companyId: companyB }, 'cars', `company_id = '${companyB}' AND NOT is_delete`],
      ['adminA', {}, 'cars', `company_id = '${companyA}' AND NOT is_delete`],
      ['adminA', { isDelete: true, companyId: companyB }, 'cars', `company_id = '${companyA}'`],
      ['adminB', {}, 'cars', `company_id = '${companyB}' AND NOT is_delete`],
      ['superAdmin', {}, 'car_users', 'NOT is_delete'],
      ['adminA', { isDelete: true }, 'car_users', `company_id = '${companyA}'`],
      ['superAdmin', {}, 'devices', 'NOT is_delete'],
      ['superAdmin', { isDelete: true }, 'devices', 'true'],
      ['superAdmin', {}, 'accounts', 'NOT is_delete'],
      ['adminA', {}, 'accounts', `company_id = '${companyA}' AND NOT is_delete`],
      // A manager sees the company's roles 1-2 only.
      ['managerA', {}, 'accounts', `company_id = '${companyA}' AND role IN (1, 2) AND NOT is_delete`],
    ];
    const call = { cars: carListCount, car_users: userListCount, devices: deviceListCount, accounts: accountListCount };
    for (const [who, body, table, where] of cases) {
      const answer = await t.call(call[table as keyof typeof call], body as never, who);
      expect(answer.status, `${who} ${table} ${JSON.stringify(body)}`).toBe(200);
      expect(answer.body.count, `${who} ${table} ${JSON.stringify(body)}`).toBe(await counted(table, where));
    }
    // The manager's list holds as many rows as its count.
    const managed = await t.call(accountList, { limit: 100 }, 'managerA');
    expect(managed.body.list.map((a) => a.role).sort()).toEqual([1, 2]);
  });

  it('empties with its table on TRUNCATE, and the job recounts one that drifted', async () => {
    await sql`INSERT INTO list_counts (list, company_id, role, is_delete, n) VALUES ('devices', null, null, false, -5)`.execute(
      t.db,
    );
    expect(await recountLists(t.db)).toBe(true);
    await expectTalliesExact();
    await sql`TRUNCATE devices CASCADE`.execute(t.db);
    const { rows } = await sql<{
      n: number;
    }>`SELECT count(*)::int AS n FROM list_counts WHERE list = 'devices'`.execute(t.db);
    expect(rows[0]!.n).toBe(0);
    // The vehicles went with their terminals (CASCADE): their counts too.
    await expectTalliesExact();
    expect((await t.call(deviceListCount, {}, 'superAdmin')).body.count).toBe(0);
  });
});

describe('a page past the middle of a long list', () => {
  const total = REVERSE_FROM * 2 + 1500;

  beforeAll(async () => {
    // Vehicles of company A, a tenth of them without a customer (its name and payment delay NULL: last ascending,
    // first descending), many sharing a type (the primary key breaks the ties), every eleventh deleted.
    await sql`INSERT INTO cars (car_id, company_id, car_number, car_type, user_id, is_delete, updated_at)
      SELECT 'deep-' || lpad(i::text, 6, '0'), ${companyA}, 'n' || (i * 7919 % 10007), 't' || (i % 13),
             CASE WHEN i % 10 = 0 THEN NULL ELSE ${fleet.A.user_id} END, i % 11 = 0, now()
      FROM generate_series(1, ${total}) AS i`.execute(t.db);
  });

  /** The page as a forward read gives it: the same order, skipping the rows before it. */
  async function forward(
    order: string,
    offset: number,
    limit: number,
    where = `company_id = '${companyA}' AND NOT is_delete`,
  ) {
    const { rows } = await sql<{ car_id: string }>`SELECT car_id FROM cars WHERE ${sql.raw(where)}
      ORDER BY ${sql.raw(order)} OFFSET ${offset} LIMIT ${limit}`.execute(t.db);
    return rows.map((r) => r.car_id);
  }

  it('holds the rows of a forward read, in order, for each sort, to the last partial page and past it', async () => {
    const live = (await t.call(carListCount, {}, 'adminA')).body.count;
    expect(live).toBeGreaterThan(REVERSE_FROM * 2);
    const sorts: [string | string[] | undefined, string][] = [
      [undefined, 'car_id asc'],
      ['car_id desc', 'car_id desc'],
      ['car_type asc', 'car_type asc, car_id asc'],
      ['car_type desc', 'car_type desc, car_id asc'],
      ['car_number desc', 'car_number desc, car_id asc'],
      ['user_name asc', 'user_name asc, car_id asc'],
      ['payment_log desc', 'user_payment_log desc, car_id asc'],
      [['car_type desc', 'user_name desc'], 'car_type desc, user_name desc, car_id asc'],
    ];
    for (const [sorts_, order] of sorts) {
      for (const offset of [REVERSE_FROM, Math.floor(live * 0.9), live - 20, live - 7, live - 1]) {
        const page = await t.call(carList, { limit: 20, offset, ...(sorts_ && { sorts: sorts_ }) }, 'adminA');
        expect(page.status).toBe(200);
        expect(
          page.body.list.map((c) => c.car_id),
          `${order} at ${offset}`,
        ).toEqual(await forward(order, offset, 20));
      }
    }
    for (const offset of [live, live + 5]) {
      const page = await t.call(carList, { limit: 20, offset }, 'adminA');
      expect(page.body.list).toEqual([]);
    }
    // Read from the end, the page rests on the tally: one three rows too many (a drift the job puts right)
    // moves it three rows towards the start; the forward read of a page before the middle does not move.
    await sql`INSERT INTO list_counts (list, company_id, role, is_delete, n) VALUES ('cars', ${companyA}, null, false, 3)`.execute(
      t.db,
    );
    const deep = live - 40;
    const shifted = await t.call(carList, { limit: 20, offset: deep }, 'adminA');
    expect(shifted.body.list.map((c) => c.car_id)).toEqual(await forward('car_id asc', deep - 3, 20));
    const early = await t.call(carList, { limit: 20, offset: REVERSE_FROM }, 'adminA');
    expect(early.body.list.map((c) => c.car_id)).toEqual(await forward('car_id asc', REVERSE_FROM, 20));
    await recountLists(t.db);
    const righted = await t.call(carList, { limit: 20, offset: deep }, 'adminA');
    expect(righted.body.list.map((c) => c.car_id)).toEqual(await forward('car_id asc', deep, 20));
  });

  it('holds the rows of a forward read with the deleted ones, and for the super admin across companies', async () => {
    const all = (await t.call(carListCount, { isDelete: true }, 'superAdmin')).body.count;
    const offset = all - 30;
    const page = await t.call(carList, { limit: 20, offset, isDelete: true, sorts: 'car_type desc' }, 'superAdmin');
    expect(page.body.list.map((c) => c.car_id)).toEqual(await forward('car_type desc, car_id asc', offset, 20, 'true'));
    // Narrowed to normal terminals: no tally, read forward (none of these vehicles has a terminal).
    const normal = await t.call(carList, { limit: 20, offset: REVERSE_FROM, isNormal: true }, 'superAdmin');
    expect(normal.body.list).toEqual([]);
  });
});
