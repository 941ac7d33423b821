import {
  accountNotify,
  accountNotifyUpdate,
  notifyHistoryList,
  notifyHistoryListCount,
  pushPublicKey,
  pushSubscribe,
  pushUnsubscribe,
  defaultNotifySettings,
  noChannelMessage,
  PushPayload,
  pushMessages,
  type CallRequest,
  type NotifyItemKey,
} from '@fleet/contract';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { evaluateBatch } from '../src/notify/evaluate-batch.js';
import { saveNotifySettings } from '../src/notify/settings.repository.js';
import { PushDispatcher } from '../src/push/push-dispatcher.js';
import { PUSH_MAX_ATTEMPTS, pushRetryDelayMs } from '../src/push/push-policy.js';
import { enqueuePush, saveSubscription } from '../src/push/push.repository.js';
import {
  accounts,
  callAs,
  createSignedInApp,
  createTestApp,
  fleet,
  login,
  seedFixtures,
  unchecked,
  type FixtureAccount,
  type SignedInApp,
} from './helper.js';
import { memoryLog, MINUTE, PUBLIC_URL, rec, resetNotifyState, testClock } from './notify-support.js';
import { browserKeys, decryptAes128gcm, startPushService, verifyVapid, type PushService } from './push-receiver.js';

let t: SignedInApp;
let svc: PushService;
const clock = testClock();
const SUBJECT = 'mailto:ops@fleet.example.jp';

beforeAll(async () => {
  [t, svc] = await Promise.all([
    createSignedInApp(['superAdmin', 'adminA', 'managerA', 'staffA', 'adminB'], { env: { VAPID_SUBJECT: SUBJECT } }),
    startPushService(),
  ]);
  await t.db
    .updateTable('cars')
    .set({ car_number: '品川 300 あ 12-34' })
    .where('car_id', '=', fleet.A.car_id)
    .execute();
});
afterAll(async () => {
  await svc?.close();
  await t?.close();
});
beforeEach(async () => {
  await resetNotifyState(t.db);
  await t.db.deleteFrom('push_deliveries').execute();
  await t.db.deleteFrom('push_subscriptions').execute();
  await t.db.deleteFrom('webhooks').execute();
  svc.calls.length = 0;
  svc.answers.length = 0;
  clock.set('2026-12-01T03:00:00Z');
});

const keysOf = (k: ReturnType<typeof browserKeys>) => ({ p256dh: k.p256dh, auth: k.auth });
const call: SignedInApp['call'] = (...args) => t.call(...args);
const dispatcher = (hosts: readonly string[] = ['127.0.0.1']) =>
  new PushDispatcher({
    db: t.db,
    log: memoryLog().log,
    vapid: { VAPID_SUBJECT: SUBJECT },
    hosts,
    clock: clock.now,
    timeoutMs: 2_000,
  });
const run = async () => {
  const d = dispatcher();
  const r = await d.runOnce();
  await d.stop();
  return r;
};
const deliveries = () => t.db.selectFrom('push_deliveries').selectAll().orderBy('id').execute();
const subscriptions = () => t.db.selectFrom('push_subscriptions').selectAll().orderBy('id').execute();

/** Switches `item` on for the account with the given channels. */
async function wants(
  accountId: string,
  item: NotifyItemKey,
  channels: { mail: boolean; push: boolean },
  param?: number,
) {
  const s = defaultNotifySettings();
  s[item] = { enable: true, param: param ?? s[item].param };
  s.channels[item] = channels;
  await saveNotifySettings(t.db, accountId, s);
}
const vibrate = (g = 3) =>
  evaluateBatch(t.db, fleet.A.car_data_id, [rec({ type: 'sensor', time: clock.now().toISOString(), vibration: g })], {
    publicUrl: PUBLIC_URL,
    clock: clock.now,
  });

describe('push calls', () => {
  it('the public key is a P-256 point, made once and kept in the database', async () => {
    const a = await call(pushPublicKey, {}, 'staffA');
    expect(a.status, a.raw.body).toBe(200);
    const key = a.body.public_key;
    expect(Buffer.from(key, 'base64url')).toHaveLength(65);
    const b = await call(pushPublicKey, {}, 'adminB');
    expect(b.body.public_key).toBe(key);
    const stored = await t.db.selectFrom('push_vapid_keys').selectAll().execute();
    expect(stored.map((r) => r.public_key)).toEqual([key]);
    expect((await t.call(pushPublicKey, {})).status).toBe(401);
  });

  it('a configured key pair is used instead of the stored one', async () => {
    const pair = (await import('web-push')).default.generateVAPIDKeys();
    const other = await createTestApp({
      env: { VAPID_PUBLIC_KEY: pair.publicKey, VAPID_PRIVATE_KEY: pair.privateKey },
    });
    try {
      await seedFixtures(other.db);
      const res = await callAs(other.app, await login(other.app, 'staffA'), pushPublicKey, {});
      expect(res.body).toEqual({ public_key: pair.publicKey });
    } finally {
      await other.close();
    }
  });

  it('subscribes and unsubscribes its own browser; the endpoint moves to whoever subscribes it last', async () => {
    const k = browserKeys();
    const endpoint = 'https://push.example.jp/send/abc';
    const res = await call(pushSubscribe, { endpoint, keys: keysOf(k), user_agent: 'Chrome' }, 'staffA');
    expect(res.status, res.raw.body).toBe(200);
    expect(await subscriptions()).toMatchObject([
      { account_id: accounts.staffA.account_id, endpoint, p256dh: k.p256dh, auth: k.auth, user_agent: 'Chrome' },
    ]);
    // Another account signs in on the same browser and subscribes: one row, now theirs.
    expect((await call(pushSubscribe, { endpoint, keys: keysOf(k) }, 'managerA')).status).toBe(200);
    expect((await subscriptions()).map((s) => s.account_id)).toEqual([accounts.managerA.account_id]);
    // staffA no longer owns it: not found, and the row stays.
    const notMine = await call(pushUnsubscribe, { endpoint }, 'staffA');
    expect(notMine.status).toBe(404);
    expect(notMine.error.message).toBe(pushMessages.notFound);
    expect(await subscriptions()).toHaveLength(1);
    expect((await call(pushUnsubscribe, { endpoint }, 'managerA')).status).toBe(200);
    expect(await subscriptions()).toEqual([]);
  });

  it('refuses a bad subscription with Japanese messages per field, storing nothing', async () => {
    const k = browserKeys();
    const res = await call(
      pushSubscribe,
      {
        endpoint: 'http://push.example.jp/x',
        keys: { p256dh: k.p256dh.slice(0, 40), auth: 'not base64!' },
      },
      'staffA',
    );
    expect(res.status).toBe(400);
    expect(res.error.errors).toMatchObject({
      endpoint: pushMessages.endpoint,
      'keys.p256dh': pushMessages.keys,
      'keys.auth': pushMessages.keys,
    });
    expect((await call(pushSubscribe, unchecked({ keys: 'x' }), 'staffA')).status).toBe(400);
    // Well-formed but not a point on P-256: web-push could never encrypt for it.
    const offCurve = Buffer.concat([Buffer.from([4]), Buffer.alloc(64, 7)]).toString('base64url');
    const notOnCurve = await call(
      pushSubscribe,
      {
        endpoint: 'https://push.example.jp/y',
        keys: { p256dh: offCurve, auth: k.auth },
      },
      'staffA',
    );
    expect(notOnCurve.status).toBe(400);
    expect(notOnCurve.error.errors).toEqual({ 'keys.p256dh': pushMessages.keys });
    expect(await subscriptions()).toEqual([]);
  });

  it('refuses an endpoint that is not an allowed push service (PUSH_SERVICE_HOSTS), storing nothing', async () => {
    const k = browserKeys();
    for (const endpoint of [
      'https://169.254.169.254/latest/meta-data/',
      'https://127.0.0.1:5432/',
      'https://push.example.jp.attacker.test/x',
      'https://evilpush.example.jp/x',
    ]) {
      const res = await call(pushSubscribe, { endpoint, keys: keysOf(k) }, 'staffA');
      expect(res.status, endpoint).toBe(400);
      expect(res.error.errors).toEqual({ endpoint: pushMessages.service });
    }
    expect(await subscriptions()).toEqual([]);
    expect(
      (await call(pushSubscribe, { endpoint: 'https://PUSH.example.jp:443/ok', keys: keysOf(k) }, 'staffA')).status,
    ).toBe(200);
  });

  it('channels per item: saved and read back; old settings keep mail; an item on needs a channel', async () => {
    const s = { ...defaultNotifySettings(), vibration: { enable: true, param: 2 } };
    s.channels = { ...s.channels, vibration: { mail: false, push: true }, warn_area: { mail: true, push: true } };
    const id = accounts.staffA.account_id;
    expect((await call(accountNotifyUpdate, { account_id: id, info: s }, 'staffA')).status).toBe(200);
    const back = (await call(accountNotify, { account_id: id }, 'staffA')).body.notify;
    expect(back.channels.vibration).toEqual({ mail: false, push: true });
    expect(back.channels.warn_area).toEqual({ mail: true, push: true });
    expect(back.channels.sensor_error).toEqual({ mail: true, push: false });

    // A row saved before channels existed (no channels): every item goes by mail.
    await t.db.updateTable('notification_settings').set({ channels: '{}' }).where('account_id', '=', id).execute();
    const legacy = (await call(accountNotify, { account_id: id }, 'staffA')).body.notify;
    expect(legacy.channels.vibration).toEqual({ mail: true, push: false });

    const none = { ...s, channels: { ...s.channels, vibration: { mail: false, push: false } } };
    const bad = await call(accountNotifyUpdate, { account_id: id, info: none }, 'staffA');
    expect(bad.status).toBe(400);
    expect(bad.error.errors).toEqual({ 'info.channels.vibration.mail': noChannelMessage });
    // An item switched off may have no channel.
    const off = { ...none, vibration: { enable: false, param: 2 } };
    expect((await call(accountNotifyUpdate, { account_id: id, info: off }, 'staffA')).status).toBe(200);
  });
});

describe('push delivery', () => {
  it('never contacts a stored subscription whose host is not an allowed push service: it is removed unsent', async () => {
    const k = browserKeys();
    await saveSubscription(
      t.db,
      accounts.staffA.account_id,
      { endpoint: `${svc.origin}/push/elsewhere`, p256dh: k.p256dh, auth: k.auth, user_agent: 'test' },
      clock.now(),
    );
    await wants(accounts.staffA.account_id, 'vibration', { mail: false, push: true }, 2);
    await vibrate(3);
    const d = dispatcher(['push.example.jp']);
    expect(await d.runOnce()).toEqual({ sent: 0, failed: 1 });
    await d.stop();
    expect(svc.calls).toEqual([]);
    expect(await subscriptions()).toEqual([]);
  });

  async function subscribeBrowser(accountId: string, path = '/push/1') {
    const k = browserKeys();
    await saveSubscription(
      t.db,
      accountId,
      { endpoint: `${svc.origin}${path}`, p256dh: k.p256dh, auth: k.auth, user_agent: 'test' },
      clock.now(),
    );
    return k;
  }

  it('a notification by push reaches the endpoint encrypted for the subscription (RFC 8291), signed with VAPID', async () => {
    const k = await subscribeBrowser(accounts.staffA.account_id);
    await wants(accounts.staffA.account_id, 'vibration', { mail: false, push: true }, 2);
    await vibrate(3);
    expect(await t.db.selectFrom('mail_outbox').select('id').execute()).toEqual([]);
    expect(await run()).toEqual({ sent: 1, failed: 0 });

    expect(svc.calls).toHaveLength(1);
    const c = svc.calls[0]!;
    expect(c.path).toBe('/push/1');
    expect(c.headers['content-encoding']).toBe('aes128gcm');
    expect(Number(c.headers.ttl)).toBeGreaterThan(0);
    const payload = PushPayload.parse(JSON.parse(decryptAes128gcm(c.body, k)));
    expect(payload).toEqual({
      title: '【車両通知】振動検知：品川 300 あ 12-34（車両ID: car-a）',
      body: 'しきい値（2G）を超える振動（3G）を検知しました\n2026/12/01 12:00（日本時間）',
      url: `${PUBLIC_URL}/car/car_detail/car-a`,
      tag: 'notify:car-a:vibration',
    });
    const publicKey = (await call(pushPublicKey, {}, 'staffA')).body.public_key;
    const { header, claims } = verifyVapid(c.headers.authorization, publicKey);
    expect(header).toMatchObject({ typ: 'JWT', alg: 'ES256' });
    expect(claims.aud).toBe(svc.origin);
    expect(claims.sub).toBe(SUBJECT);
    expect(claims.exp * 1000).toBeGreaterThan(Date.now());

    // A second key would not decrypt it: the test's decryption really depends on the subscription's keys.
    expect(() => decryptAes128gcm(c.body, browserKeys())).toThrow();
    // Sent once: another pass sends nothing.
    expect(await run()).toEqual({ sent: 0, failed: 0 });
    expect(svc.calls).toHaveLength(1);
    expect((await deliveries())[0]).toMatchObject({ attempts: 1, last_status: 201, last_error: null });
  });

  it('mail and push together; every browser of the account; nothing for those without push', async () => {
    await subscribeBrowser(accounts.staffA.account_id, '/push/pc');
    await subscribeBrowser(accounts.staffA.account_id, '/push/phone');
    await subscribeBrowser(accounts.managerA.account_id, '/push/manager');
    await wants(accounts.staffA.account_id, 'vibration', { mail: true, push: true }, 2);
    await wants(accounts.managerA.account_id, 'vibration', { mail: true, push: false }, 2);
    await vibrate(3);
    expect((await deliveries()).map((d) => d.endpoint).sort()).toEqual([
      `${svc.origin}/push/pc`,
      `${svc.origin}/push/phone`,
    ]);
    expect(await t.db.selectFrom('mail_outbox').select('to_addr').orderBy('to_addr').execute()).toEqual([
      { to_addr: accounts.managerA.email },
      { to_addr: accounts.staffA.email },
    ]);
  });

  it('the same event queued twice is sent once per subscription', async () => {
    await subscribeBrowser(accounts.staffA.account_id);
    const m = {
      account_id: accounts.staffA.account_id,
      event_id: 'notify:car-a:vibration:x',
      item: 'vibration',
      car_id: 'car-a',
      company_id: fleet.A.company_id,
      payload: '{}',
    };
    expect(await enqueuePush(t.db, m, clock.now())).toBe(1);
    expect(await enqueuePush(t.db, m, clock.now())).toBe(0);
    expect(await deliveries()).toHaveLength(1);
  });

  it('a 500 is retried after the backoff; a 410 removes the subscription and fails the delivery', async () => {
    await subscribeBrowser(accounts.staffA.account_id);
    await wants(accounts.staffA.account_id, 'vibration', { mail: false, push: true }, 2);
    await vibrate(3);
    svc.answers.push(500);
    expect(await run()).toEqual({ sent: 0, failed: 1 });
    let [d] = await deliveries();
    expect(d).toMatchObject({ attempts: 1, last_status: 500, sent_at: null, gave_up: false });
    expect(d!.last_error).toMatch(/^HTTP 500/);
    expect(new Date(d!.next_attempt_at).getTime()).toBe(clock.now().getTime() + pushRetryDelayMs(1));
    expect(await run()).toEqual({ sent: 0, failed: 0 });
    clock.advance(MINUTE);
    expect(await run()).toEqual({ sent: 1, failed: 0 });
    expect(svc.calls).toHaveLength(2);
    [d] = await deliveries();
    expect(d).toMatchObject({ attempts: 2, last_status: 201, last_error: null });

    // Later the push service says the subscription is gone.
    clock.advance(2 * 3600_000);
    await vibrate(4);
    svc.answers.push(410);
    expect(await run()).toEqual({ sent: 0, failed: 1 });
    expect(await subscriptions()).toEqual([]);
    const gone = (await deliveries())[1]!;
    expect(gone).toMatchObject({ gave_up: true, last_status: 410, subscription_id: null, sent_at: null });
    expect(gone.last_error).toContain('購読が無効になったため削除しました');
    clock.advance(60 * MINUTE);
    expect(await run()).toEqual({ sent: 0, failed: 0 });
    expect(svc.calls).toHaveLength(3);
  });

  it('gives up after the last attempt', async () => {
    await subscribeBrowser(accounts.staffA.account_id);
    await wants(accounts.staffA.account_id, 'vibration', { mail: false, push: true }, 2);
    await vibrate(3);
    await t.db
      .updateTable('push_deliveries')
      .set({ attempts: PUSH_MAX_ATTEMPTS - 1 })
      .execute();
    svc.answers.push(503);
    expect(await run()).toEqual({ sent: 0, failed: 1 });
    clock.advance(24 * 3600_000);
    expect(await run()).toEqual({ sent: 0, failed: 0 });
    const res = await call(notifyHistoryList, {}, 'adminA');
    expect(res.body.list).toMatchObject([{ channel: 'push', status: 'failed', attempts: PUSH_MAX_ATTEMPTS }]);
  });
});

describe('notification history', () => {
  beforeEach(async () => {
    const k = browserKeys();
    await saveSubscription(
      t.db,
      accounts.managerA.account_id,
      { endpoint: `${svc.origin}/push/m`, p256dh: k.p256dh, auth: k.auth, user_agent: '' },
      clock.now(),
    );
    await wants(accounts.managerA.account_id, 'vibration', { mail: true, push: true }, 2);
    await wants(accounts.superAdmin.account_id, 'vibration', { mail: true, push: false }, 2);
    await wants(accounts.adminB.account_id, 'vibration', { mail: true, push: false }, 2);
    await t.db
      .insertInto('webhooks')
      .values({
        company_id: fleet.A.company_id,
        url: 'https://hooks.example.jp/a',
        secret: 'x'.repeat(20),
        events: '["notify.vibration"]',
      })
      .execute();
    await vibrate(3);
    await evaluateBatch(
      t.db,
      fleet.B.car_data_id,
      [rec({ type: 'sensor', time: clock.now().toISOString(), vibration: 3 })],
      {
        publicUrl: PUBLIC_URL,
        clock: clock.now,
      },
    );
    await run();
  });
  const list = (who: FixtureAccount, body: CallRequest<typeof notifyHistoryList> = {}) =>
    call(notifyHistoryList, body, who);

  it('a company admin sees mail, push and webhook rows of their company; a manager no webhooks', async () => {
    const res = await list('adminA', { sorts: 'channel asc' });
    expect(res.status, res.raw.body).toBe(200);
    expect(res.body.list).toMatchObject([
      { channel: 'mail', item: 'vibration', car_id: 'car-a', recipient: accounts.managerA.email, status: 'pending' },
      {
        channel: 'push',
        car_number: '品川 300 あ 12-34',
        recipient: `${accounts.managerA.name}（127.0.0.1:${new URL(svc.origin).port}）`,
        status: 'sent',
        attempts: 1,
        last_error: null,
      },
      {
        channel: 'webhook',
        recipient: 'https://hooks.example.jp/a',
        status: 'pending',
        company_id: fleet.A.company_id,
      },
    ]);
    expect((await call(notifyHistoryListCount, {}, 'adminA')).body).toEqual({ count: 3 });
    const manager = await list('managerA');
    expect(manager.body.list.map((r) => r.channel).sort()).toEqual(['mail', 'push']);
    // The super admin's own mail and company B's are not company A's to see, whatever companyId says.
    const narrowed = await list('adminA', { companyId: fleet.B.company_id });
    expect(narrowed.raw.body).not.toMatch(/company-b|car-b|admin-b|super@/);
  });

  it('the super admin sees every company and may narrow; search and sort follow the list rules', async () => {
    const all = (await call(notifyHistoryListCount, {}, 'superAdmin')).body.count;
    // Mail: the super admin (car-a, car-b), managerA (car-a), adminB (car-b); managerA's push; company A's webhook.
    expect(all).toBe(6);
    const b = await list('superAdmin', { companyId: fleet.B.company_id });
    expect(b.body.list).toMatchObject([{ channel: 'mail', car_id: 'car-b', recipient: accounts.adminB.email }]);
    const search = await list('superAdmin', { search_item: '1', search_text: 'car-b' });
    expect(search.body.list).toHaveLength(2);
    const byRecipient = await list('superAdmin', { search_item: '2', search_text: 'super@', sorts: 'car_id desc' });
    expect(byRecipient.body.list).toMatchObject([
      { recipient: accounts.superAdmin.email, car_id: 'car-b', company_id: null },
      { recipient: accounts.superAdmin.email, car_id: 'car-a', company_id: null },
    ]);
    const bad = await list('superAdmin', { sorts: 'payload asc' });
    expect(bad.status).toBe(400);
    expect((await list('superAdmin', { search_item: '9', search_text: 'x' })).status).toBe(400);
  });

  it('common users and other companies: 403 and nothing of company A', async () => {
    const staff = await list('staffA');
    expect(staff.status).toBe(403);
    expect((await call(notifyHistoryListCount, {}, 'staffA')).status).toBe(403);
    const b = await list('adminB');
    expect(b.body.list).toMatchObject([{ car_id: 'car-b', recipient: accounts.adminB.email }]);
    expect(b.raw.body).not.toMatch(/car-a|manager-a|hooks\.example\.jp/);
    expect((await t.call(notifyHistoryList, {})).status).toBe(401);
  });
});
