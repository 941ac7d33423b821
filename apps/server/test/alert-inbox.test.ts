import { ALERT_ACK_MAX, alertAck, alertAckMany, alertCount, alertList, groupAdd, groupCarsAdd } from '@fleet/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  accounts,
  companyA,
  companyB,
  createSignedInApp,
  fleet,
  unchecked,
  withGroupLimit,
  type SignedInApp,
} from './helper.js';

/**
 * The alert inbox for a busy fleet (docs/zones.md "Alerts"): alert_list's filters (kind, vehicle,
 * one date), its pages and total, and alert_ack_many in the caller's scope, all or nothing.
 */
let t: SignedInApp;
let branch: string;
/** Alerts by name: a1..a25 of car-a (the newest last), n1 of the second car, b1 of company B's car. */
const ids: Record<string, string> = {};

const add = async (name: string, car_id: string, company_id: string, kind: string, minute: number) => {
  const row = await t.db
    .insertInto('alerts')
    .values({
      dedupe_key: `inbox:${name}`,
      company_id,
      car_id,
      car_data_id: null,
      kind,
      what: name,
      lat: null,
      lng: null,
      happened_at: new Date(Date.parse('2026-03-10T00:00:00Z') + minute * 60_000),
    })
    .returning('alert_id')
    .executeTakeFirstOrThrow();
  ids[name] = String(row.alert_id);
};
const acked = async (...names: string[]) =>
  t.db
    .selectFrom('alerts')
    .select(['acked_by'])
    .where(
      'alert_id',
      'in',
      names.map((n) => ids[n]!),
    )
    .execute();

beforeAll(async () => {
  t = await createSignedInApp();
  await t.db
    .updateTable('cars')
    .set({ car_number: '品川 500 さ 12-34' })
    .where('car_id', '=', fleet.A.car_id)
    .execute();
  await t.db
    .insertInto('cars')
    .values({ car_id: 'NERIMA-2', company_id: companyA, user_id: fleet.A.user_id, car_number: '練馬 301 い 14-25' })
    .execute();
  // car-a: 20 zone entries and 5 vibrations a minute apart; the Nerima car one zone entry; company B one.
  for (let i = 1; i <= 25; i++) await add(`a${i}`, fleet.A.car_id, companyA, i <= 20 ? 'zone_enter' : 'vibration', i);
  await add('n1', 'NERIMA-2', companyA, 'zone_enter', 30);
  await add('b1', fleet.B.car_id, companyB, 'zone_enter', 31);
  branch = (await t.call(groupAdd, { info: { name: '横浜営業所' } }, 'adminA')).body.group_id;
  await t.call(groupCarsAdd, { group_id: branch, car_ids: ['NERIMA-2'] }, 'adminA');
});
afterAll(() => t?.close());

describe('alert_list', () => {
  it('pages newest first with the total, and keeps the unacknowledged count', async () => {
    const first = await t.call(alertList, { limit: 10 }, 'staffA');
    expect(first.status).toBe(200);
    expect(first.body.count).toBe(26);
    expect(first.body.unacknowledged).toBe(26);
    expect(first.body.list.map((a) => a.what)).toEqual(['n1', ...Array.from({ length: 9 }, (_, i) => `a${25 - i}`)]);
    const last = await t.call(alertList, { offset: 20, limit: 10 }, 'staffA');
    expect(last.body.list.map((a) => a.what)).toEqual(['a6', 'a5', 'a4', 'a3', 'a2', 'a1']);
    expect(last.body.count).toBe(26);
    // Without paging fields: the app's page size (20).
    expect((await t.call(alertList, {}, 'staffA')).body.list).toHaveLength(20);
  });

  it('filters by kind and by the vehicle, its number typed loosely or its id', async () => {
    const vib = await t.call(alertList, { kind: 'vibration' }, 'staffA');
    expect(vib.body.count).toBe(5);
    expect(vib.body.list.every((a) => a.kind === 'vibration')).toBe(true);
    const nerima = await t.call(alertList, { search_text: '練馬３０１い１４２５' }, 'staffA');
    expect(nerima.body.list.map((a) => a.what)).toEqual(['n1']);
    expect((await t.call(alertList, { search_text: 'nerima' }, 'staffA')).body.list.map((a) => a.what)).toEqual(['n1']);
    const both = await t.call(alertList, { search_text: '品川', kind: 'zone_enter' }, 'staffA');
    expect(both.body.count).toBe(20);
    expect((await t.call(alertList, { search_text: '品川' }, 'adminB')).body.count).toBe(0);
  });

  it('takes a range with both dates and refuses one alone in Japanese, field by field', async () => {
    const day = await t.call(alertList, { from: '2026-03-10', to: '2026-03-10' }, 'staffA');
    expect(day.body.count).toBe(26);
    const fromOnly = await t.call(alertList, { from: '2026-03-10' }, 'staffA');
    expect(fromOnly.status).toBe(400);
    expect(fromOnly.error.errors).toEqual({ to: '開始日時と終了日時の両方を入力してください' });
    const bad = await t.call(alertList, unchecked({ kind: 'zone_party', limit: 0 }), 'staffA');
    expect(bad.status).toBe(400);
    expect(bad.error.errors).toMatchObject({ kind: '入力内容が不正です', limit: expect.any(String) });
  });
});

describe('alert_ack_many', () => {
  it('acknowledges the picked alerts once, keeping an earlier acknowledger, and lowers the count', async () => {
    expect((await t.call(alertAck, { alert_id: ids.a1! }, 'managerA')).status).toBe(200);
    const before = (await t.call(alertCount, {}, 'adminA')).body.unacknowledged;
    const r = await t.call(alertAckMany, { alert_ids: [ids.a1!, ids.a2!, ids.a3!, ids.a3!] }, 'staffA');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ ok: true, count: 2, acked_by: accounts.staffA.account_id });
    expect((await acked('a1', 'a2', 'a3')).map((a) => a.acked_by).sort()).toEqual([
      accounts.managerA.account_id,
      accounts.staffA.account_id,
      accounts.staffA.account_id,
    ]);
    expect((await t.call(alertCount, {}, 'adminA')).body.unacknowledged).toBe(before - 2);
    // Again: nothing new, the first acknowledgements stand.
    expect((await t.call(alertAckMany, { alert_ids: [ids.a2!] }, 'adminA')).body.count).toBe(0);
    expect((await acked('a2'))[0]!.acked_by).toBe(accounts.staffA.account_id);
  });

  it('refuses bad bodies with 400 and the Japanese message on the field', async () => {
    const none = await t.call(alertAckMany, { alert_ids: [] }, 'staffA');
    expect(none.status).toBe(400);
    expect(none.error.errors).toEqual({ alert_ids: 'アラートを選択してください' });
    const bad = await t.call(alertAckMany, unchecked({ alert_ids: [ids.a4, 'x'] }), 'staffA');
    expect(bad.error.errors).toEqual({ 'alert_ids.1': '入力内容が不正です' });
    const many = Array.from({ length: ALERT_ACK_MAX + 1 }, (_, i) => String(i + 1));
    expect((await t.call(alertAckMany, { alert_ids: many }, 'staffA')).error.errors).toEqual({
      alert_ids: `一度に確認済みにできるアラートは${ALERT_ACK_MAX}件までです`,
    });
    expect((await acked('a4'))[0]!.acked_by).toBeNull();
  });

  it('is refused signed out, and 404 with nothing changed for another company’s or an unknown id', async () => {
    expect((await t.call(alertAckMany, { alert_ids: [ids.a4!] })).status).toBe(401);
    const other = await t.call(alertAckMany, { alert_ids: [ids.a4!, ids.b1!] }, 'adminA');
    expect(other.status).toBe(404);
    expect(other.error.message).toBe('アラートが見つかりません。');
    expect((await t.call(alertAckMany, { alert_ids: [ids.a4!, '999999999'] }, 'adminA')).status).toBe(404);
    expect((await acked('a4', 'b1')).map((a) => a.acked_by)).toEqual([null, null]);
    // The super admin reaches every company's.
    expect((await t.call(alertAckMany, { alert_ids: [ids.a4!, ids.b1!] }, 'superAdmin')).body.count).toBe(2);
  });

  it('holds a group-limited account to its groups’ vehicles', async () => {
    await withGroupLimit(t.db, accounts.managerA.account_id, [branch], async () => {
      const mine = await t.call(alertList, {}, 'managerA');
      expect(mine.body.list.map((a) => a.what)).toEqual(['n1']);
      expect(mine.body.count).toBe(1);
      const outside = await t.call(alertAckMany, { alert_ids: [ids.n1!, ids.a5!] }, 'managerA');
      expect(outside.status).toBe(404);
      expect((await acked('n1', 'a5')).map((a) => a.acked_by)).toEqual([null, null]);
      const inside = await t.call(alertAckMany, { alert_ids: [ids.n1!] }, 'managerA');
      expect(inside.body.count).toBe(1);
      expect((await t.call(alertCount, {}, 'managerA')).body.unacknowledged).toBe(0);
    });
  });
});
