import { accountList, carList, carListCount, userList, userListCount } from '@fleet/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { companyA, createSignedInApp, type SignedInApp } from './helper.js';

/**
 * The lists' searches of vehicle numbers and names forgive how the words are typed (migration forgiving_search,
 * docs/console.md "Lists"): full-width and half-width alike, spaces and hyphens left out, hiragana as katakana.
 */
let t: SignedInApp;
const call: SignedInApp['call'] = (c, body, who = 'superAdmin') => t.call(c, body, who);
beforeAll(async () => {
  t = await createSignedInApp(['superAdmin']);
  await t.db
    .insertInto('car_users')
    .values([
      {
        user_id: 'fs-1',
        company_id: companyA,
        first_name: '佐藤',
        name: '花子',
        merchant: '練馬',
        payment_log: 0,
        gender: 0,
        birthday: null,
      },
      {
        user_id: 'fs-2',
        company_id: companyA,
        first_name: 'サトウ',
        name: 'ハナコ',
        merchant: '練馬',
        payment_log: 0,
        gender: 0,
        birthday: null,
      },
      {
        user_id: 'fs-3',
        company_id: companyA,
        first_name: '田中',
        name: '一郎',
        merchant: '練馬',
        payment_log: 0,
        gender: 0,
        birthday: null,
      },
    ])
    .execute();
  await t.db
    .insertInto('cars')
    .values([
      { car_id: 'FS0001', company_id: companyA, user_id: 'fs-1', car_number: '練馬 301 い 14-25', car_status: 0 },
      { car_id: 'FS0002', company_id: companyA, user_id: 'fs-2', car_number: '品川 500 さ 12-34', car_status: 0 },
      { car_id: 'FS0003', company_id: companyA, user_id: 'fs-3', car_number: '足立 330 あ 30-01', car_status: 0 },
    ])
    .execute();
});
afterAll(() => t?.close());

const cars = async (search_item: string, search_text: string) => {
  const res = await call(carList, { limit: 100, search_item, search_text });
  expect(res.status, res.raw.body).toBe(200);
  const count = (await call(carListCount, { search_item, search_text })).body.count;
  const found = res.body.list.map((c) => c.car_id).filter((id) => id.startsWith('FS'));
  expect(count, `count of ${search_text}`).toBe(res.body.list.length);
  return found;
};

describe('forgiving search', () => {
  it('finds a vehicle number typed full-width, without spaces or without its hyphen', async () => {
    for (const words of ['３０１', '練馬301', '1425', '１４－２５', '練馬　３０１　い', '301い'])
      expect(await cars('3', words), words).toEqual(['FS0001']);
    expect(await cars('3', '30')).toEqual(['FS0001', 'FS0003']);
  });

  it('finds a name without its space, in the other kana, in two characters', async () => {
    expect(await cars('1', '佐藤花子')).toEqual(['FS0001']);
    expect(await cars('1', 'さとう')).toEqual(['FS0002']);
    expect(await cars('1', 'ｻﾄｳ ﾊﾅｺ')).toEqual(['FS0002']);
    expect(await cars('1', '佐藤')).toEqual(['FS0001']);
    expect(await cars('1', '藤 花')).toEqual(['FS0001']);
    const customers = await call(userList, { limit: 100, search_item: '1', search_text: 'はなこ' });
    expect(customers.body.list.map((u) => u.user_id)).toEqual(['fs-2']);
    expect((await call(userListCount, { search_item: '1', search_text: '佐藤花子' })).body.count).toBe(1);
  });

  it('finds an account name the same way, and a wildcard stays a character', async () => {
    const names = async (search_text: string) =>
      (await call(accountList, { limit: 100, search_item: '1', search_text })).body.list.map((a) => a.name);
    const [first] = await names('');
    const squeezed = first!.replace(/\s/g, '');
    expect(await names(squeezed)).toContain(first);
    expect(await names('%')).toEqual([]);
  });

  it('keys a column and the words with the one function in the database', async () => {
    const { rows } = await sql<{ key: string }>`select list_search_key(${'ﾚﾝﾏ ３０１－い'}) as key`.execute(t.db);
    expect(rows[0]!.key).toBe('レンマ301イ');
    const stored = await t.db
      .selectFrom('cars')
      .select('car_number_key')
      .where('car_id', '=', 'FS0001')
      .executeTakeFirst();
    expect(stored?.car_number_key).toBe('練馬301イ1425');
  });
});
