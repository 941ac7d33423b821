import {
  alertAck,
  alertCount,
  alertList,
  carZonesUpdate,
  groupAdd,
  groupCarsAdd,
  groupNotify,
  groupNotifyMessages,
  groupNotifyUpdate,
  noChannelMessage,
  notifyHistoryList,
  notifyMessages,
  validationMessages,
  webhookAdd,
  zoneAdd,
  type GroupNotifyFormInput,
} from '@fleet/contract';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { hashDeviceSecret } from '../src/credentials/device-secret.js';
import { accounts, companyB, createSignedInApp, fleet, unchecked, withGroupLimit, type SignedInApp } from './helper.js';
import { subscribe } from './notify-support.js';
import { reply, sendBatch, terminalA } from './telemetry-support.js';

/**
 * Notification settings per vehicle group (docs/notifications.md "Group settings"): the calls, their
 * validation and reach, and delivery: a group's recipients hear about the group's vehicles only, zone
 * crossings included; an account's own エリア警告 switch sends zone crossings by mail and the
 * zone.enter / zone.exit webhook events go to the receivers.
 */
let t: SignedInApp;
let branch: string;
let other: string;
const terminalA2 = { id: 'device-a2', imei: '358409100000003' };

beforeAll(async () => {
  t = await createSignedInApp();
  // A second vehicle of company A with its own terminal, outside the branch.
  await t.db
    .insertInto('devices')
    .values({
      car_device_id: terminalA2.id,
      car_data_id: terminalA2.imei,
      password_hash: hashDeviceSecret('terminal-secret'),
    })
    .execute();
  await t.db
    .insertInto('cars')
    .values({
      car_id: 'car-a2',
      company_id: fleet.A.company_id,
      user_id: fleet.A.user_id,
      car_device_id: terminalA2.id,
      car_data_id: terminalA2.imei,
    })
    .execute();
  branch = (await t.call(groupAdd, { info: { name: '横浜営業所' } }, 'adminA')).body.group_id;
  other = (await t.call(groupAdd, { info: { name: '川崎営業所' } }, 'adminA')).body.group_id;
  await t.call(groupCarsAdd, { group_id: branch, car_ids: [fleet.A.car_id] }, 'adminA');
  await t.call(groupCarsAdd, { group_id: other, car_ids: ['car-a2'] }, 'adminA');
});
afterAll(() => t?.close());

const storedSettings = () => t.db.selectFrom('group_notify_settings').selectAll().execute();
const zoneOnly: GroupNotifyFormInput = {
  zone_enter: { enable: true },
  channels: { zone_enter: { mail: true, push: false } },
  account_ids: [accounts.staffA.account_id],
};

describe('group notification calls', () => {
  beforeEach(async () => {
    await t.db.deleteFrom('group_notify_settings').execute();
  });

  it('reads the defaults, saves items, params, channels and recipients, and reads them back', async () => {
    const fresh = await t.call(groupNotify, { group_id: branch }, 'managerA');
    expect(fresh.status).toBe(200);
    expect(fresh.body.name).toBe('横浜営業所');
    expect(fresh.body.notify.device_lost).toEqual({ enable: false, param: 60 });
    expect(fresh.body.notify.zone_enter).toEqual({ enable: false, param: null });
    expect(fresh.body.notify.account_ids).toEqual([]);
    // The company's accounts, none of company B.
    expect(fresh.body.candidates.map((c) => c.account_id).sort()).toEqual(
      [accounts.adminA, accounts.managerA, accounts.staffA].map((a) => a.account_id).sort(),
    );

    const info: GroupNotifyFormInput = {
      device_lost: { enable: true, param: '120' },
      zone_exit: { enable: true },
      channels: { device_lost: { mail: true, push: true }, zone_exit: { mail: false, push: true } },
      account_ids: [accounts.staffA.account_id, accounts.managerA.account_id, accounts.staffA.account_id],
    };
    expect((await t.call(groupNotifyUpdate, { group_id: branch, info }, 'managerA')).body).toEqual({ ok: true });
    const read = (await t.call(groupNotify, { group_id: branch }, 'adminA')).body.notify;
    expect(read.device_lost).toEqual({ enable: true, param: 120 });
    expect(read.zone_exit).toEqual({ enable: true, param: null });
    expect(read.vibration).toEqual({ enable: false, param: 1.5 });
    expect(read.channels.zone_exit).toEqual({ mail: false, push: true });
    expect(read.account_ids).toEqual([accounts.managerA.account_id, accounts.staffA.account_id]);
  });

  it('refuses bad input with Japanese messages per field and stores nothing', async () => {
    const bad: [unknown, Record<string, string>][] = [
      [
        { device_lost: { enable: true, param: 3 }, account_ids: ['staff-a'] },
        { 'info.device_lost.param': notifyMessages.range(5, 10080) },
      ],
      [
        { vibration: { enable: true, param: 'abc' }, account_ids: ['staff-a'] },
        { 'info.vibration.param': validationMessages.number },
      ],
      [
        {
          zone_enter: { enable: true },
          channels: { zone_enter: { mail: false, push: false } },
          account_ids: ['staff-a'],
        },
        { 'info.channels.zone_enter.mail': noChannelMessage },
      ],
      [{ zone_enter: { enable: true } }, { 'info.account_ids': groupNotifyMessages.noRecipient }],
      // An account of another company cannot be told about the group's vehicles.
      [
        { zone_enter: { enable: true }, account_ids: ['staff-a', accounts.adminB.account_id] },
        { 'info.account_ids.1': groupNotifyMessages.recipientNotAllowed },
      ],
    ];
    for (const [info, errors] of bad) {
      const r = await t.call(groupNotifyUpdate, unchecked({ group_id: branch, info }), 'adminA');
      expect(r.status, JSON.stringify(info)).toBe(400);
      expect(r.error.errors).toEqual(errors);
    }
    expect(await storedSettings()).toEqual([]);
  });

  it('is for managers and administrators of the group’s company; a group-limited manager only for his groups', async () => {
    expect((await t.call(groupNotify, { group_id: branch }, 'staffA')).status).toBe(403);
    expect((await t.call(groupNotifyUpdate, { group_id: branch, info: zoneOnly }, 'staffA')).status).toBe(403);
    expect((await t.call(groupNotify, { group_id: branch }, 'adminB')).status).toBe(404);
    expect((await t.call(groupNotifyUpdate, { group_id: branch, info: zoneOnly }, 'adminB')).status).toBe(404);
    expect((await t.call(groupNotify, { group_id: 'no-such-group' }, 'adminA')).status).toBe(404);
    // The super admin reaches every company's groups.
    expect((await t.call(groupNotify, { group_id: branch }, 'superAdmin')).status).toBe(200);

    // managerA limited to the branch: his group yes, the other one is not found.
    await t.db.insertInto('account_group_limits').values({ account_id: accounts.managerA.account_id }).execute();
    await t.db
      .insertInto('account_groups')
      .values({ account_id: accounts.managerA.account_id, group_id: branch })
      .execute();
    try {
      const { sessionsChanged } = await import('../src/sessions/session-cache.js');
      await sessionsChanged(t.db, { accountId: accounts.managerA.account_id });
      expect((await t.call(groupNotifyUpdate, { group_id: branch, info: zoneOnly }, 'managerA')).status).toBe(200);
      expect((await t.call(groupNotify, { group_id: other }, 'managerA')).status).toBe(404);
      expect((await t.call(groupNotifyUpdate, { group_id: other, info: zoneOnly }, 'managerA')).status).toBe(404);
      // A manager limited to the branch is no candidate of the other group.
      const candidates = (await t.call(groupNotify, { group_id: other }, 'adminA')).body.candidates;
      expect(candidates.map((c) => c.account_id)).not.toContain(accounts.managerA.account_id);
    } finally {
      await t.db.deleteFrom('account_group_limits').where('account_id', '=', accounts.managerA.account_id).execute();
      const { sessionsChanged } = await import('../src/sessions/session-cache.js');
      await sessionsChanged(t.db, { accountId: accounts.managerA.account_id });
    }
    expect((await storedSettings()).map((s) => s.group_id)).toEqual([branch]);
  });
});

describe('delivery', () => {
  const circle = { name: '横浜倉庫', shape: 'circle' as const, lat: 35.45, lng: 139.63, radius_m: 500 };
  /** North through the circle's centre: in at the 6th point, out at the 15th. */
  const track = (start: string) =>
    Array.from({ length: 20 }, (_, i) => ({
      type: 'gps' as const,
      time: new Date(Date.parse(start) + i * 10_000).toISOString(),
      lat: circle.lat - 0.009 + i * 0.001,
      lng: circle.lng,
      speed: 40,
    }));
  const mailsTo = (to: string) =>
    t.db
      .selectFrom('mail_outbox')
      .select(['to_addr', 'subject', 'body'])
      .where('to_addr', '=', to)
      .orderBy('id')
      .execute();
  let zone: string;

  beforeAll(async () => {
    zone = (await t.call(zoneAdd, { info: circle }, 'adminA')).body.zone_id;
    for (const car_id of [fleet.A.car_id, 'car-a2'])
      await t.call(carZonesUpdate, { car_id, zone_ids: [zone] }, 'adminA');
  });
  beforeEach(async () => {
    await t.db.deleteFrom('group_notify_settings').execute();
    await t.db.deleteFrom('notification_settings').execute();
    await t.db.deleteFrom('notification_events').execute();
    await t.db.deleteFrom('mail_outbox').execute();
    await t.db.deleteFrom('webhook_deliveries').execute();
  });

  it('tells a group’s recipient of a zone crossing of the group’s vehicle, not of a vehicle outside it', async () => {
    // staff-a has no settings of his own: only the branch's settings tell him.
    expect((await t.call(groupNotifyUpdate, { group_id: branch, info: zoneOnly }, 'managerA')).status).toBe(200);
    expect(
      reply(await sendBatch(t.app, terminalA, { seq: 1001, records: track('2026-02-01T01:00:00Z') })).accepted,
    ).toBe(20);
    expect(
      reply(await sendBatch(t.app, terminalA2, { seq: 1001, records: track('2026-02-01T02:00:00Z') })).accepted,
    ).toBe(20);
    const mails = await mailsTo(accounts.staffA.email);
    // The enter of car-a only: not its exit (switched off), nothing of car-a2 (outside the branch).
    expect(mails.map((m) => m.subject)).toEqual([
      `【車両通知】ゾーン進入：${fleet.A.car_id}（車両ID: ${fleet.A.car_id}）`,
    ]);
    expect(mails[0]!.body).toContain('ゾーン「横浜倉庫」に入りました');
    expect(mails[0]!.body).toContain('拠点・部署「横浜営業所」の通知設定による通知です。');
    // Both vehicles' crossings are in the inbox all the same.
    const kinds = await t.db.selectFrom('alerts').select(['car_id', 'kind']).where('zone_id', '=', zone).execute();
    expect(
      kinds
        .filter((a) => a.car_id === 'car-a2')
        .map((a) => a.kind)
        .sort(),
    ).toEqual(['zone_enter', 'zone_exit']);
  });

  it('judges the group’s params for its vehicles, and tells an account once whichever settings ask', async () => {
    // staff-a's own エリア警告 and the branch's zone switches: one mail per item and vehicle within the cooldown.
    await subscribe(t.db, accounts.staffA.account_id, { warn_area: null });
    await t.call(
      groupNotifyUpdate,
      {
        group_id: branch,
        info: {
          ...zoneOnly,
          zone_exit: { enable: true },
          account_ids: [accounts.staffA.account_id, accounts.managerA.account_id],
        },
      },
      'adminA',
    );
    await sendBatch(t.app, terminalA, { seq: 1002, records: track('2026-02-02T01:00:00Z') });
    await sendBatch(t.app, terminalA2, { seq: 1002, records: track('2026-02-02T02:00:00Z') });
    const staff = (await mailsTo(accounts.staffA.email)).map((m) => m.subject);
    // Own settings: エリア警告 for the first crossing of each vehicle (the exit is within its cooldown).
    expect(staff.filter((s) => s.includes('エリア警告'))).toHaveLength(2);
    // The branch's: the enter and the exit of car-a.
    expect(staff.filter((s) => s.includes('ゾーン'))).toEqual([
      `【車両通知】ゾーン進入：${fleet.A.car_id}（車両ID: ${fleet.A.car_id}）`,
      `【車両通知】ゾーン退出：${fleet.A.car_id}（車両ID: ${fleet.A.car_id}）`,
    ]);
    const manager = (await mailsTo(accounts.managerA.email)).map((m) => m.subject);
    expect(manager).toHaveLength(2);
    expect(manager.every((s) => s.includes(fleet.A.car_id) && !s.includes('car-a2'))).toBe(true);
  });

  it('sends a zone crossing by mail on an account’s エリア警告 and to the webhook receivers', async () => {
    await subscribe(t.db, accounts.managerA.account_id, { warn_area: null });
    const hook = await t.call(
      webhookAdd,
      { url: 'https://hooks.example.jp/fleet', events: ['zone.enter', 'zone.exit'] },
      'adminA',
    );
    expect(hook.status).toBe(200);
    await sendBatch(t.app, terminalA2, { seq: 1003, records: track('2026-02-03T02:00:00Z') });
    const mails = await mailsTo(accounts.managerA.email);
    expect(mails.map((m) => m.subject)).toEqual(['【車両通知】エリア警告：car-a2（車両ID: car-a2）']);
    expect(mails[0]!.body).toContain('ゾーン「横浜倉庫」に入りました');
    const deliveries = await t.db
      .selectFrom('webhook_deliveries')
      .select('event_id')
      .where('webhook_id', '=', hook.body.webhook.id)
      .orderBy('event_id')
      .execute();
    expect(deliveries.map((d) => d.event_id.split(':').slice(0, 2).join(':'))).toEqual([
      'zone_enter:car-a2',
      'zone_exit:car-a2',
    ]);
  });

  it('pushes a zone crossing to a recipient’s browsers by the group’s channels, listed in the history', async () => {
    await t.db.deleteFrom('push_deliveries').execute();
    await t.db
      .insertInto('push_subscriptions')
      .values({
        account_id: accounts.staffA.account_id,
        endpoint: 'https://fcm.googleapis.com/fcm/send/branch',
        p256dh: 'k',
        auth: 'a',
      })
      .execute();
    await t.call(
      groupNotifyUpdate,
      {
        group_id: branch,
        info: {
          zone_exit: { enable: true },
          channels: { zone_exit: { mail: false, push: true } },
          account_ids: ['staff-a'],
        },
      },
      'adminA',
    );
    await sendBatch(t.app, terminalA, { seq: 1005, records: track('2026-02-05T01:00:00Z') });
    const pushed = await t.db
      .selectFrom('push_deliveries')
      .select(['account_id', 'item', 'car_id', 'payload'])
      .execute();
    expect(pushed.map((p) => [p.account_id, p.item, p.car_id])).toEqual([['staff-a', 'zone_exit', fleet.A.car_id]]);
    expect(JSON.parse(pushed[0]!.payload).title).toBe(
      `【車両通知】ゾーン退出：${fleet.A.car_id}（車両ID: ${fleet.A.car_id}）`,
    );
    expect(await mailsTo(accounts.staffA.email)).toEqual([]);
    const history = await t.call(
      notifyHistoryList,
      { search_item: '0', search_text: '', sorts: [], isDelete: false, offset: 0, limit: 20 },
      'adminA',
    );
    expect(history.status).toBe(200);
    expect(history.body.list.filter((r) => r.channel === 'push').map((r) => r.item)).toEqual(['zone_exit']);
    await t.db.deleteFrom('push_subscriptions').execute();
  });

  it('a group-limited account’s inbox holds its groups’ vehicles only', async () => {
    const all = (await t.call(alertList, {}, 'adminA')).body.list;
    expect(new Set(all.map((a) => a.car_id))).toEqual(new Set([fleet.A.car_id, 'car-a2']));
    await withGroupLimit(t.db, accounts.managerA.account_id, [branch], async () => {
      const mine = await t.call(alertList, {}, 'managerA');
      expect(mine.body.list.length).toBeGreaterThan(0);
      expect(mine.body.list.every((a) => a.car_id === fleet.A.car_id)).toBe(true);
      const unacked = all.filter((a) => a.car_id === fleet.A.car_id && !a.acked_at).length;
      expect((await t.call(alertCount, {}, 'managerA')).body.unacknowledged).toBe(unacked);
      const outside = all.find((a) => a.car_id === 'car-a2')!;
      expect((await t.call(alertAck, { alert_id: outside.alert_id }, 'managerA')).status).toBe(404);
      const inside = all.find((a) => a.car_id === fleet.A.car_id && !a.acked_at)!;
      expect((await t.call(alertAck, { alert_id: inside.alert_id }, 'managerA')).status).toBe(200);
    });
  });

  it('a company B account is never told about a company A group’s vehicles', async () => {
    await subscribe(t.db, accounts.adminB.account_id, { warn_area: null });
    await t.call(groupNotifyUpdate, { group_id: branch, info: zoneOnly }, 'adminA');
    await sendBatch(t.app, terminalA, { seq: 1004, records: track('2026-02-04T01:00:00Z') });
    expect(await mailsTo(accounts.adminB.email)).toEqual([]);
    expect(companyB).not.toBe(fleet.A.company_id);
  });
});
