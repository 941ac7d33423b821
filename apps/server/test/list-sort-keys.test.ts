import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { Kysely, Migrator, sql } from 'kysely';
import { PGliteDialect } from 'kysely-pglite-dialect';
import {
  accountList,
  accountListCount,
  carDelete,
  carList,
  carUpdate,
  companyUpdate,
  deviceGetDetail,
  deviceList,
  userList,
  userUpdate,
  type Call,
  type CallRequest,
} from '@fleet/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrations } from '../src/db/migrations/index.js';
import { companyA, createSignedInApp, fleet, type CallOutcome, type SignedInApp } from './helper.js';

/**
 * The lists sort and search by keys stored on the listed row (migration
 * list_sort_keys): the customer's name, merchant and payment delay and the
 * company's name on the vehicle, the company's name on customers and accounts,
 * the live vehicle on the terminal. Whatever writes, the lists follow.
 */
let t: SignedInApp;
beforeAll(async () => {
  t = await createSignedInApp(['superAdmin']);
  await t.db
    .insertInto('companies')
    .values([
      { company_id: 'co-k', company_name: '株式会社ケー' },
      { company_id: 'co-m', company_name: '株式会社エム' },
    ])
    .execute();
  await t.db
    .insertInto('car_users')
    .values([
      {
        user_id: 'ku-1',
        company_id: 'co-k',
        first_name: '山田',
        name: '一郎',
        merchant: '港オート',
        payment_log: 0,
        birthday: null,
        gender: 0,
      },
      {
        user_id: 'ku-2',
        company_id: 'co-k',
        first_name: '山田',
        name: '二郎',
        merchant: '港オート',
        payment_log: 1,
        birthday: null,
        gender: 0,
      },
      {
        user_id: 'mu-1',
        company_id: 'co-m',
        first_name: '森',
        name: '三郎',
        merchant: '丘モーター',
        payment_log: 2,
        birthday: null,
        gender: 0,
      },
    ])
    .execute();
  await t.db
    .insertInto('devices')
    .values(
      ['kd-1', 'kd-2', 'kd-3'].map((id, i) => ({
        car_device_id: id,
        car_data_id: `35300000000000${i}`,
        password_hash: 'x',
      })),
    )
    .execute();
  await t.db
    .insertInto('cars')
    .values([
      { car_id: 'K001', company_id: 'co-k', user_id: 'ku-1', car_device_id: 'kd-1', car_data_id: '353000000000000' },
      { car_id: 'K002', company_id: 'co-k', user_id: 'ku-2', car_device_id: 'kd-2', car_data_id: '353000000000001' },
      { car_id: 'M001', company_id: 'co-m', user_id: 'mu-1' },
    ])
    .execute();
  await t.db
    .insertInto('accounts')
    .values({
      account_id: 'acc-k',
      name: '経理 花子',
      email: 'k@example.jp',
      role: 2,
      company_id: 'co-k',
      password_hash: 'x',
    })
    .execute();
});
afterAll(() => t?.close());

const call = <C extends Call>(listCall: C, body: NoInfer<CallRequest<C>>) => t.call(listCall, body, 'superAdmin');
/** The body of a call that must succeed. */
const okBody = <C extends Call>(res: CallOutcome<C>) => {
  expect(res.status, res.raw.body).toBe(200);
  return res.body;
};
const cars = async (body: CallRequest<typeof carList>) => okBody(await call(carList, { limit: 100, ...body })).list;
const userRows = async (body: CallRequest<typeof userList>) =>
  okBody(await call(userList, { limit: 100, ...body })).list;
const accountRows = async (body: CallRequest<typeof accountList>) =>
  okBody(await call(accountList, { limit: 100, ...body })).list;
const carIds = async (body: object) => (await cars(body)).map((c) => c.car_id);
const ours = (ids: string[]) => ids.filter((id) => /^[KM]0/.test(id));

describe('company rename', () => {
  it('moves its vehicles, customers and accounts in sorts and searches by company name', async () => {
    // 株式会社エム < 株式会社ケー by code point: M001 first.
    expect(ours(await carIds({ sorts: 'company_name asc' }))).toEqual(['M001', 'K001', 'K002']);
    const upd = await call(companyUpdate, { info: { company_id: 'co-k', company_name: '株式会社アイ' } });
    expect(upd.status, upd.raw.body).toBe(200);
    expect(ours(await carIds({ sorts: 'company_name asc' }))).toEqual(['K001', 'K002', 'M001']);
    expect((await cars({ search_item: '0', search_text: 'K00' })).map((c) => c.company_name)).toEqual([
      '株式会社アイ',
      '株式会社アイ',
    ]);

    const users = await userRows({
      search_item: '2',
      search_text: 'アイ',
    });
    expect(users.map((u) => [u.user_id, u.company_name])).toEqual([
      ['ku-1', '株式会社アイ'],
      ['ku-2', '株式会社アイ'],
    ]);
    expect(await userRows({ search_item: '2', search_text: '株式会社ケー' })).toEqual([]);
    const byCompany = (await userRows({ sorts: 'company_name asc' })).map((u) => u.user_id);
    expect(byCompany.filter((id) => /^[km]u-/.test(id))).toEqual(['ku-1', 'ku-2', 'mu-1']);

    const accounts = await accountRows({
      sorts: 'company_name asc',
    });
    expect(accounts[0]).toMatchObject({ account_id: 'acc-k', company_name: '株式会社アイ' });
  });
});

describe('customer edit', () => {
  it('renames the customer on their vehicles: search, sort and the shown name follow', async () => {
    const info = {
      user_id: 'ku-2',
      first_name: '阿部',
      name: '二郎',
      company_id: 'co-k',
      merchant: '空モータース',
      payment_log: 3,
    };
    const res = await call(userUpdate, { info });
    expect(res.status, res.raw.body).toBe(200);
    expect(await cars({ search_item: '1', search_text: '阿部 二' })).toEqual([
      expect.objectContaining({ car_id: 'K002', user_name: '阿部 二郎', merchant: '空モータース', payment_log: 3 }),
    ]);
    expect(await cars({ search_item: '1', search_text: '山田 二郎' })).toEqual([]);
    expect(ours(await carIds({ sorts: 'user_name asc' }))).toEqual(['K001', 'M001', 'K002']); // by code point: 山田 < 森 < 阿部
    expect(ours(await carIds({ sorts: 'merchant desc' }))).toEqual(['K002', 'K001', 'M001']); // 空 > 港 > 丘
    expect(ours(await carIds({ sorts: 'payment_log desc' }))).toEqual(['K002', 'M001', 'K001']);
    const named = await userRows({ search_item: '1', search_text: '阿部 二郎' });
    expect(named.map((u) => u.user_id)).toEqual(['ku-2']);
  });

  it('moves the vehicles with the customer to a new company, company name included', async () => {
    const info = {
      user_id: 'mu-1',
      first_name: '森',
      name: '三郎',
      company_id: companyA,
      merchant: '丘モーター',
      payment_log: 2,
    };
    expect((await call(userUpdate, { info })).status).toBe(200);
    expect((await cars({ search_item: '0', search_text: 'M001' }))[0]).toMatchObject({
      company_name: '株式会社テストA',
    });
    const [user] = await userRows({ search_item: '0', search_text: 'mu-1' });
    expect(user!.company_name).toBe('株式会社テストA');
  });
});

describe('terminal reassignment', () => {
  const devices = async (body: CallRequest<typeof deviceList> = {}) =>
    okBody(await call(deviceList, { limit: 100, ...body })).list;
  const carOf = async (id: string) => (await devices({ search_item: '0', search_text: id }))[0]!.car_id;
  const vehicle = (over: object) => ({
    car_id: 'K001',
    car_number: '品川 500 さ 11-22',
    car_type: 'トヨタ アクア',
    car_vin: 'NHP10-1234567',
    user_id: 'ku-1',
    car_device_id: 'kd-1',
    ...over,
  });

  it('follows a vehicle moving to another terminal, its deletion and its restoration', async () => {
    expect(await carOf('kd-1')).toBe('K001');
    expect(await carOf('kd-3')).toBeNull();
    const res = await call(carUpdate, { info: vehicle({ car_device_id: 'kd-3' }) });
    expect(res.status, res.raw.body).toBe(200);
    expect(await carOf('kd-1')).toBeNull();
    expect(await carOf('kd-3')).toBe('K001');
    const sorted = (await devices({ sorts: 'car_id desc' }))
      .map((d) => d.car_device_id)
      .filter((id) => id.startsWith('kd-'));
    expect(sorted).toEqual(['kd-1', 'kd-2', 'kd-3']); // no vehicle first (NULLs first descending), then K002, K001
    expect((await devices({ isRegistered: false })).map((d) => d.car_device_id)).toContain('kd-1');
    expect((await devices({ isRegistered: true })).map((d) => d.car_device_id)).toContain('kd-3');

    expect((await call(carDelete, { car_id: 'K001', isDelete: true })).status).toBe(200);
    expect(await carOf('kd-3')).toBeNull();
    expect((await call(carDelete, { car_id: 'K001', isDelete: false })).status).toBe(200);
    expect(await carOf('kd-3')).toBe('K001');
    const detail = (await call(deviceGetDetail, { car_device_id: 'kd-3' })).body;
    expect(detail).toMatchObject({ car_id: 'K001', car: { car_id: 'K001' } });
  });
});

describe('two-character searches (bigrams, list_search_bigrams)', () => {
  beforeAll(async () => {
    await t.db
      .insertInto('accounts')
      .values(
        [
          ['bg-1', 'Ab 太郎'],
          ['bg-2', 'xaBy'],
          ['bg-3', 'a% 記号'],
          ['bg-4', 'a_b'],
          ['bg-5', '中田 一'],
        ].map(([id, name]) => ({
          account_id: id!,
          name: name!,
          email: `${id}@example.jp`,
          role: 2,
          company_id: 'co-m',
          password_hash: 'x',
        })),
      )
      .execute();
  });
  const names = async (text: string) =>
    (await accountRows({ search_item: '1', search_text: text }))
      .map((a) => a.account_id)
      .filter((id) => id.startsWith('bg-'));
  const count = async (text: string) =>
    (await call(accountListCount, { search_item: '1', search_text: text, companyId: 'co-m' })).body.count;

  it('match a substring case aside, wildcards literally, as ILIKE does', async () => {
    expect(await names('ab')).toEqual(['bg-1', 'bg-2']);
    expect(await names('AB')).toEqual(['bg-1', 'bg-2']);
    expect(await names('a%')).toEqual(['bg-3']);
    expect(await names('_b')).toEqual(['bg-4']);
    // Spaces do not matter in a name (forgiving search, docs/console.md): 田一 finds 中田 一.
    expect(await names('田一')).toEqual(['bg-5']);
    expect(await names('田 ')).toEqual(['bg-5']);
    expect(await names('中田')).toEqual(['bg-5']);
    expect(await count('ab')).toBe(2);
    // one and three characters take the other paths
    expect(await names('b')).toEqual(['bg-1', 'bg-2', 'bg-4']);
    expect(await names('b 太')).toEqual(['bg-1']);
  });

  it('on the vehicle and customer lists, the stored names follow a rename', async () => {
    expect((await cars({ search_item: '1', search_text: '阿部' })).map((c) => c.car_id)).toEqual(['K002']);
    const users = await userRows({ search_item: '1', search_text: '阿部' });
    expect(users.map((u) => u.user_id)).toEqual(['ku-2']);
    const info = {
      user_id: 'ku-2',
      first_name: '岡部',
      name: '二郎',
      company_id: 'co-k',
      merchant: '空モータース',
      payment_log: 3,
    };
    expect((await call(userUpdate, { info })).status).toBe(200);
    expect(await cars({ search_item: '1', search_text: '阿部' })).toEqual([]);
    expect((await cars({ search_item: '1', search_text: '岡部' })).map((c) => c.car_id)).toEqual(['K002']);
    expect((await userRows({ search_item: '1', search_text: '岡部' })).map((u) => u.user_id)).toEqual(['ku-2']);
  });
});

describe('the copies cannot be written around', () => {
  it('recomputes a copy a statement sets directly, and fills rows inserted by plain SQL', async () => {
    await sql`update cars set user_name = 'forged', company_name = 'forged' where car_id = ${fleet.A.car_id}`.execute(
      t.db,
    );
    await sql`update devices set car_id = 'forged' where car_device_id = ${fleet.A.car_device_id}`.execute(t.db);
    await sql`update car_users set company_name = 'forged' where user_id = ${fleet.A.user_id}`.execute(t.db);
    const car = await t.db
      .selectFrom('cars')
      .selectAll()
      .where('car_id', '=', fleet.A.car_id)
      .executeTakeFirstOrThrow();
    expect(car).toMatchObject({
      user_name: `顧客 ${fleet.A.user_id}`,
      company_name: '株式会社テストA',
      user_payment_log: 0,
    });
    const device = await t.db
      .selectFrom('devices')
      .select('car_id')
      .where('car_device_id', '=', fleet.A.car_device_id)
      .executeTakeFirstOrThrow();
    expect(device.car_id).toBe(fleet.A.car_id);
    const user = await t.db
      .selectFrom('car_users')
      .select(['company_name', 'full_name'])
      .where('user_id', '=', fleet.A.user_id)
      .executeTakeFirstOrThrow();
    expect(user).toEqual({ company_name: '株式会社テストA', full_name: `顧客 ${fleet.A.user_id}` });
    // A vehicle without a customer or company has no copies.
    await sql`insert into cars (car_id, car_number) values ('N001', 'x')`.execute(t.db);
    const bare = await t.db.selectFrom('cars').selectAll().where('car_id', '=', 'N001').executeTakeFirstOrThrow();
    expect(bare).toMatchObject({ user_name: null, user_merchant: null, user_payment_log: null, company_name: null });
    await sql`delete from cars where car_id = 'N001'`.execute(t.db);
  });
});

describe('migration list_sort_keys', () => {
  it('fills the copies of the rows that exist when it runs', async () => {
    const pglite = await PGlite.create({ extensions: { pg_trgm } });
    const db = new Kysely<unknown>({ dialect: new PGliteDialect(pglite) });
    try {
      const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
      const before = await migrator.migrateTo('2026_11_26_110000_list_search_trigram');
      expect(before.error).toBeUndefined();
      await sql`insert into companies (company_id, company_name) values ('c1', '株式会社一')`.execute(db);
      await sql`insert into car_users (user_id, company_id, first_name, name, merchant, payment_log) values ('u1', 'c1', '佐藤', '花子', '店', 2), ('u2', null, '', '', '', 0)`.execute(
        db,
      );
      await sql`insert into devices (car_device_id, car_data_id, password_hash) values ('d1', 'i1', 'x'), ('d2', 'i2', 'x')`.execute(
        db,
      );
      await sql`insert into cars (car_id, company_id, user_id, car_device_id, is_delete) values ('a1', 'c1', 'u1', 'd1', false), ('a2', null, 'u2', 'd2', true), ('a3', null, null, null, false)`.execute(
        db,
      );
      await sql`insert into accounts (account_id, name, email, role, company_id, password_hash) values ('x1', 'n', 'e', 2, 'c1', 'x'), ('x2', 'n', 'f', 0, null, 'x')`.execute(
        db,
      );
      const after = await migrator.migrateTo('2026_11_27_090000_list_sort_keys');
      expect(after.error).toBeUndefined();
      const q = async (text: string) => (await sql.raw(text).execute(db)).rows;
      expect(
        await q(`select car_id, user_name, user_merchant, user_payment_log, company_name from cars order by car_id`),
      ).toEqual([
        { car_id: 'a1', user_name: '佐藤 花子', user_merchant: '店', user_payment_log: 2, company_name: '株式会社一' },
        { car_id: 'a2', user_name: ' ', user_merchant: '', user_payment_log: 0, company_name: null },
        { car_id: 'a3', user_name: null, user_merchant: null, user_payment_log: null, company_name: null },
      ]);
      expect(await q(`select user_id, full_name, company_name from car_users order by user_id`)).toEqual([
        { user_id: 'u1', full_name: '佐藤 花子', company_name: '株式会社一' },
        { user_id: 'u2', full_name: ' ', company_name: null },
      ]);
      expect(await q(`select car_device_id, car_id from devices order by 1`)).toEqual([
        { car_device_id: 'd1', car_id: 'a1' },
        { car_device_id: 'd2', car_id: null },
      ]);
      expect(await q(`select account_id, company_name from accounts order by 1`)).toEqual([
        { account_id: 'x1', company_name: '株式会社一' },
        { account_id: 'x2', company_name: null },
      ]);
    } finally {
      await db.destroy();
    }
  });
});
