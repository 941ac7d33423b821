import {
  me,
  accountGroups,
  accountGroupsUpdate,
  carGroups,
  carGroupsUpdate,
  carList,
  carListCount,
  carMapList,
  fleetSummary,
  groupAdd,
  groupCarsAdd,
  groupDelete,
  groupList,
  groupMessages,
  groupUpdate,
  validationMessages,
} from '@fleet/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accounts, callAs, companyB, createSignedInApp, fleet, login, unchecked, type SignedInApp } from './helper.js';

/** Vehicle groups (docs/groups.md): the calls, the group_id filters, and an account limited to groups. */
let t: SignedInApp;
beforeAll(async () => {
  t = await createSignedInApp();
  // A second vehicle of company A, outside every group.
  await t.db
    .insertInto('cars')
    .values({ car_id: 'car-a2', car_number: '品川 300 あ 12-34', company_id: fleet.A.company_id, car_status: 0 })
    .execute();
});
afterAll(() => t?.close());

const listQuery = { search_item: '0', search_text: '', sorts: [], isDelete: false, offset: 0, limit: 20 };

describe('group calls', () => {
  it('adds, lists, renames and deletes a company’s groups; a duplicate name is refused in Japanese', async () => {
    const add = await t.call(groupAdd, { info: { name: '横浜営業所' } }, 'managerA');
    expect(add.status).toBe(200);
    const dup = await t.call(groupAdd, { info: { name: '横浜営業所' } }, 'adminA');
    expect([dup.status, dup.error.errors?.name]).toEqual([400, groupMessages.duplicate]);
    const empty = await t.call(groupAdd, unchecked({ info: { name: ' ' } }), 'adminA');
    expect([empty.status, empty.error.errors?.['info.name']]).toEqual([400, validationMessages.required]);
    // Company B does not see company A's group.
    expect((await t.call(groupList, {}, 'adminB')).body.list).toEqual([]);
    const group_id = add.body.group_id;
    expect((await t.call(groupUpdate, { group_id, info: { name: '横浜支店' } }, 'adminB')).status).toBe(404);
    expect((await t.call(groupUpdate, { group_id, info: { name: '横浜支店' } }, 'managerA')).status).toBe(200);
    expect((await t.call(groupList, {}, 'staffA')).body.list.map((g) => [g.name, g.car_count])).toEqual([
      ['横浜支店', 0],
    ]);
    expect((await t.call(groupAdd, { info: { name: '大阪' } }, 'staffA')).status).toBe(403);
    expect((await t.call(groupDelete, { group_id }, 'managerA')).status).toBe(200);
    expect((await t.call(groupList, {}, 'managerA')).body.list).toEqual([]);
  });

  it('refuses another company’s group for a vehicle, storing nothing', async () => {
    const b = (await t.call(groupAdd, { info: { name: 'B社倉庫', company_id: companyB } }, 'superAdmin')).body.group_id;
    const res = await t.call(carGroupsUpdate, { car_id: fleet.A.car_id, group_ids: [b] }, 'adminA');
    expect([res.status, res.error.errors?.group_ids]).toEqual([400, groupMessages.otherCompany]);
    expect((await t.call(carGroups, { car_id: fleet.A.car_id }, 'adminA')).body.groups).toEqual([]);
  });
});

describe('group filters and a group-limited account', () => {
  let branch: string;
  beforeAll(async () => {
    branch = (await t.call(groupAdd, { info: { name: '本社' } }, 'adminA')).body.group_id;
    const bulk = await t.call(groupCarsAdd, { group_id: branch, car_ids: [fleet.A.car_id] }, 'adminA');
    expect(bulk.body.count).toBe(1);
  });

  it('group_id narrows the vehicle list, its count, the map and the summary', async () => {
    const all = await t.call(carList, listQuery, 'adminA');
    expect(all.body.list.map((c) => c.car_id).sort()).toEqual(['car-a', 'car-a2']);
    const one = await t.call(carList, { ...listQuery, group_id: branch }, 'adminA');
    expect(one.body.list.map((c) => c.car_id)).toEqual(['car-a']);
    const count = await t.call(carListCount, { ...listQuery, group_id: branch }, 'adminA');
    expect(count.body.count).toBe(1);
    const map = await t.call(carMapList, { group_id: branch }, 'adminA');
    expect(map.body.list.map((c) => c.car_id)).toEqual(['car-a']);
    const summary = await t.call(fleetSummary, { from: '2026-11-23', to: '2026-11-23', group_id: branch }, 'adminA');
    expect(summary.body.rows.map((r) => r.car_id)).toEqual(['car-a']);
  });

  it('bulk assignment refuses another company’s vehicle and stores nothing', async () => {
    const g = (await t.call(groupAdd, { info: { name: '川崎' } }, 'adminA')).body.group_id;
    const res = await t.call(groupCarsAdd, { group_id: g, car_ids: ['car-a2', fleet.B.car_id] }, 'adminA');
    expect(res.status).toBe(404);
    expect((await t.call(carGroups, { car_id: 'car-a2' }, 'adminA')).body.groups).toEqual([]);
  });

  it('an account limited to a group sees only its vehicles, at once', async () => {
    const limit = await t.call(
      accountGroupsUpdate,
      { account_id: accounts.staffA.account_id, group_ids: [branch] },
      'adminA',
    );
    expect(limit.status).toBe(200);
    expect((await t.call(accountGroups, { account_id: accounts.staffA.account_id }, 'adminA')).body.group_ids).toEqual([
      branch,
    ]);
    // The same session: the limit applies without signing in again.
    expect((await t.call(carList, listQuery, 'staffA')).body.list.map((c) => c.car_id)).toEqual(['car-a']);
    expect((await t.call(carListCount, listQuery, 'staffA')).body.count).toBe(1);
    expect((await t.call(carMapList, {}, 'staffA')).body.list.map((c) => c.car_id)).toEqual(['car-a']);
    expect((await t.call(groupList, {}, 'staffA')).body.list.map((g) => g.group_id)).toEqual([branch]);
    const summary = await t.call(fleetSummary, { from: '2026-11-23', to: '2026-11-23' }, 'staffA');
    expect(summary.body.rows.map((r) => r.car_id)).toEqual(['car-a']);
    expect((await t.call(carGroups, { car_id: 'car-a2' }, 'staffA')).status).toBe(404);
    // A limited account does not change groups, and /api/me says so (the console then offers none).
    const own = await t.call(groupAdd, { info: { name: '抜け道' } }, 'staffA');
    expect(own.status).toBe(403);
    expect((await t.call(me, {}, 'staffA')).body.groups_limited).toBe(true);
    // Freed: the whole company again.
    await t.call(accountGroupsUpdate, { account_id: accounts.staffA.account_id, group_ids: null }, 'adminA');
    expect((await t.call(carListCount, listQuery, 'staffA')).body.count).toBe(2);
    expect((await t.call(me, {}, 'staffA')).body.groups_limited).toBe(false);
  });

  it('a limit survives the deletion of its last group: the account then sees no vehicle', async () => {
    const g = (await t.call(groupAdd, { info: { name: '閉鎖予定' } }, 'adminA')).body.group_id;
    await t.call(accountGroupsUpdate, { account_id: accounts.staffA.account_id, group_ids: [g] }, 'adminA');
    await t.call(groupDelete, { group_id: g }, 'adminA');
    const token = await login(t.app, 'staffA');
    expect((await callAs(t.app, token, carListCount, listQuery)).body.count).toBe(0);
    await t.call(accountGroupsUpdate, { account_id: accounts.staffA.account_id, group_ids: null }, 'adminA');
  });
});
