import { createServer } from 'node:net';
import {
  webhookAdd,
  webhookDelete,
  webhookDeliveryList,
  webhookList,
  webhookUpdate,
  DEVICE_BATCH_PATH,
  deliveryErrorMessages,
  webhookMessages,
  type CallRequest,
  type WebhookEventBody,
} from '@fleet/contract';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { reserveCommand } from '../src/commands/terminal-commands.repository.js';
import { queueCommandEvents } from '../src/webhooks/command-events.js';
import { WebhookDispatcher } from '../src/webhooks/webhook-dispatcher.js';
import { WEBHOOK_MAX_ATTEMPTS, webhookRetryDelayMs } from '../src/webhooks/webhook-policy.js';
import { verifySignature } from '../src/webhooks/webhook-signature.js';
import { accounts, createSignedInApp, fleet, unchecked, type FixtureAccount, type SignedInApp } from './helper.js';
import { memoryLog, MINUTE, subscribe, testClock } from './notify-support.js';
import { startWebhookReceiver, type WebhookReceiver } from './webhook-receiver.js';

let t: SignedInApp;
let rx: WebhookReceiver;
let rxB: WebhookReceiver;
const clock = testClock();

beforeAll(async () => {
  [t, rx, rxB] = await Promise.all([
    // The receivers listen on 127.0.0.1: this app is an on-premises deployment that allows internal ones
    // (webhook-ssrf.test.ts proves the refusal without it).
    createSignedInApp(['superAdmin', 'adminA', 'managerA', 'staffA', 'adminB'], {
      env: { WEBHOOK_ALLOW_PRIVATE: '1' },
    }),
    startWebhookReceiver(),
    startWebhookReceiver(),
  ]);
});
afterAll(async () => {
  await Promise.all([rx?.close(), rxB?.close()]);
  await t?.close();
});
beforeEach(async () => {
  await t.db.deleteFrom('webhooks').execute();
  await t.db.deleteFrom('webhook_cursors').execute();
  rx.calls.length = 0;
  rx.answers.length = 0;
  rxB.calls.length = 0;
  // A little ahead of the wall clock the gateway queues by, so what a test queued is due at once.
  clock.set(new Date(Date.now() + MINUTE));
});

const call: SignedInApp['call'] = (...args) => t.call(...args);
const add = (who: FixtureAccount, body: CallRequest<typeof webhookAdd>) => call(webhookAdd, body, who);
const dispatcher = (timeoutMs = 2_000) =>
  new WebhookDispatcher({
    db: t.db,
    log: memoryLog().log,
    clock: clock.now,
    timeoutMs,
    allowPrivate: t.config.WEBHOOK_ALLOW_PRIVATE,
  });
const deliveries = () => t.db.selectFrom('webhook_deliveries').selectAll().orderBy('id').execute();
const SECRET = 'test-secret-0123456789abcdef';

let seq = 100;
const sendBatch = (records: object[]) =>
  t.app.inject({
    method: 'POST',
    url: DEVICE_BATCH_PATH,
    headers: { authorization: `Basic ${Buffer.from(`${fleet.A.car_device_id}:terminal-secret`).toString('base64')}` },
    payload: { seq: seq++, records },
  });

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return typeof address === 'object' && address ? address.port : 0;
}

describe('webhook calls', () => {
  it('an administrator adds, lists, updates and deletes their company receivers; the secret is shown once', async () => {
    const res = await add('adminA', {
      url: rx.url,
      events: ['command', 'notify.vibration'],
      description: '回収システム',
    });
    expect(res.status, res.raw.body).toBe(200);
    const { webhook, secret } = res.body;
    expect(secret).toMatch(/^whsec_[0-9a-f]{64}$/);
    expect(webhook).toMatchObject({
      company_id: fleet.A.company_id,
      url: rx.url,
      enabled: true,
      secret_hint: secret.slice(-4),
    });

    const list = await call(webhookList, {}, 'adminA');
    expect(list.body).toMatchObject({
      count: 1,
      list: [{ id: webhook.id, events: ['command', 'notify.vibration'] }],
    });
    expect(list.raw.body).not.toContain(secret);

    const upd = await call(
      webhookUpdate,
      { id: webhook.id, url: rx.url, events: ['terminal.offline'], enabled: false },
      'adminA',
    );
    expect(upd.body).toEqual({ ok: true });
    const row = await t.db.selectFrom('webhooks').selectAll().executeTakeFirstOrThrow();
    expect(row).toMatchObject({ enabled: false, secret });

    expect((await call(webhookList, {}, 'superAdmin')).body.count).toBe(1);
    expect((await call(webhookList, {}, 'adminB')).body.count).toBe(0);
    expect((await call(webhookDelete, { id: webhook.id }, 'adminB')).status).toBe(404);
    expect((await call(webhookUpdate, { id: webhook.id, url: rx.url, events: ['command'] }, 'adminB')).status).toBe(
      404,
    );
    expect((await call(webhookDelete, { id: webhook.id }, 'adminA')).body).toEqual({ ok: true });
    expect((await call(webhookList, {}, 'adminA')).body.count).toBe(0);
  });

  it('the super admin adds a receiver for every company', async () => {
    const res = await add('superAdmin', { url: rx.url, events: ['command'], secret: SECRET });
    expect(res.body).toMatchObject({ webhook: { company_id: null }, secret: SECRET });
    expect((await call(webhookList, {}, 'adminA')).body.count).toBe(0);
  });

  it('refuses bad input in Japanese', async () => {
    const res = await add('adminA', { url: 'ftp://example.jp/x', events: [], secret: 'short' });
    expect(res.status).toBe(400);
    expect(res.error.errors).toMatchObject({
      url: webhookMessages.url,
      events: webhookMessages.events,
      secret: webhookMessages.secret,
    });
    const bad = await add('adminA', { url: rx.url, events: unchecked(['nothing']) });
    expect(bad.status).toBe(400);
    expect(bad.error.errors?.['events.0']).toBe('入力内容が不正です');
  });

  it('refuses a receiver id past the database integer with a 400, never a 500', async () => {
    // Found by fuzz-api-3 (seed -765535904): webhook_id 2147483648 reached PostgreSQL as an integer.
    const past = 2 ** 31;
    const list = await t.call(webhookDeliveryList, { webhook_id: past }, 'superAdmin');
    expect(list.status).toBe(400);
    expect(list.error.errors).toEqual({ webhook_id: '入力内容が不正です' });
    const del = await t.call(webhookDelete, { id: past }, 'adminA');
    expect(del.status).toBe(400);
    expect(del.error.errors).toEqual({ id: '入力内容が不正です' });
  });

  it('refuses managers and common users', async () => {
    for (const who of ['managerA', 'staffA'] as const) {
      const res = await add(who, { url: rx.url, events: ['command'] });
      expect(res.status).toBe(403);
      expect(res.error.message).toBe(webhookMessages.companyAdminsOnly);
      expect((await call(webhookDeliveryList, {}, who)).status).toBe(403);
    }
  });
});

describe('webhook deliveries', () => {
  it('queues in the ingest transaction, answers the terminal before any call, then delivers signed bodies once', async () => {
    await subscribe(t.db, accounts.staffA.account_id, { connect_error: null });
    await add('adminA', { url: rx.url, events: ['notify.connect_error', 'terminal.offline'], secret: SECRET });
    await add('adminB', {
      url: rxB.url,
      events: ['notify.connect_error', 'terminal.offline', 'command'],
      secret: SECRET,
    });
    const time = new Date(Date.now() - 60_000).toISOString();
    const records = [{ type: 'connection', time, state: 'disconnected' }];

    const answer = await sendBatch(records);
    expect(answer.statusCode, answer.body).toBe(200);
    // The terminal has its answer; the receiver has heard nothing yet: delivery is the job's.
    expect(rx.calls).toHaveLength(0);
    expect((await deliveries()).map((d) => [d.event_type, d.sent_at])).toEqual([
      ['terminal.offline', null],
      ['notify.connect_error', null],
    ]);

    expect(await dispatcher().runOnce()).toEqual({ sent: 2, failed: 0 });
    expect(rx.calls).toHaveLength(2);
    const now = Math.floor(clock.now().getTime() / 1000);
    for (const call of rx.calls) {
      expect(call.headers['content-type']).toBe('application/json');
      expect(verifySignature(SECRET, call.body, String(call.headers['x-fleet-signature']), now)).toBe(true);
      expect(verifySignature('another-secret-000000', call.body, String(call.headers['x-fleet-signature']), now)).toBe(
        false,
      );
    }
    const bodies = rx.calls.map((c) => JSON.parse(c.body) as WebhookEventBody);
    expect(bodies.map((b) => b.type).sort()).toEqual(['notify.connect_error', 'terminal.offline']);
    const notify = bodies.find((b) => b.type === 'notify.connect_error')!;
    expect(notify).toMatchObject({
      company_id: fleet.A.company_id,
      data: { item: 'connect_error', car_id: fleet.A.car_id },
    });
    expect(rx.calls[0]!.headers['x-fleet-event-id']).toBe(bodies[0]!.id);

    // Another company's receiver heard nothing; a second run and a restart send nothing more.
    expect(rxB.calls).toHaveLength(0);
    expect(await dispatcher().runOnce()).toEqual({ sent: 0, failed: 0 });
    expect(rx.calls).toHaveLength(2);
  });

  it('queues the same event once, however often it is queued', async () => {
    await add('adminA', { url: rx.url, events: ['terminal.online'], secret: SECRET });
    const time = new Date(Date.now() - 30_000).toISOString();
    await sendBatch([{ type: 'connection', time, state: 'connected' }]);
    await sendBatch([{ type: 'connection', time, state: 'connected' }]);
    expect(await deliveries()).toHaveLength(1);
    await dispatcher().runOnce();
    expect(rx.calls).toHaveLength(1);
  });

  it('two dispatchers at once (two instances) call each event once', async () => {
    await add('adminA', { url: rx.url, events: ['terminal.online', 'terminal.offline'], secret: SECRET });
    const base = Date.now() - 120_000;
    for (let i = 0; i < 6; i++) {
      await sendBatch([
        {
          type: 'connection',
          time: new Date(base + i * 1000).toISOString(),
          state: i % 2 ? 'connected' : 'disconnected',
        },
      ]);
    }
    const results = await Promise.all([dispatcher().runOnce(), dispatcher().runOnce()]);
    expect(results.reduce((n, r) => n + r.sent, 0)).toBe(6);
    expect(rx.calls).toHaveLength(6);
    expect(new Set(rx.calls.map((c) => c.headers['x-fleet-event-id'])).size).toBe(6);
  });

  it('retries after a 500 with backoff and delivers once the receiver answers 2xx', async () => {
    await add('adminA', { url: rx.url, events: ['terminal.offline'], secret: SECRET });
    rx.answers.push(500, 503);
    await sendBatch([{ type: 'connection', time: new Date(Date.now() - 10_000).toISOString(), state: 'disconnected' }]);

    expect(await dispatcher().runOnce()).toEqual({ sent: 0, failed: 1 });
    let [d] = await deliveries();
    expect(d).toMatchObject({ attempts: 1, last_status: 500, last_error: 'HTTP 500', sent_at: null });
    expect(new Date(d!.next_attempt_at).getTime()).toBe(clock.now().getTime() + webhookRetryDelayMs(1));
    expect(await dispatcher().runOnce()).toEqual({ sent: 0, failed: 0 });

    clock.advance(MINUTE);
    expect(await dispatcher().runOnce()).toEqual({ sent: 0, failed: 1 });
    [d] = await deliveries();
    expect(new Date(d!.next_attempt_at).getTime()).toBe(clock.now().getTime() + 2 * MINUTE);

    clock.advance(2 * MINUTE);
    expect(await dispatcher().runOnce()).toEqual({ sent: 1, failed: 0 });
    [d] = await deliveries();
    expect(d).toMatchObject({ attempts: 3, last_status: 200, last_error: null });
    expect(rx.calls).toHaveLength(3);
    expect(new Set(rx.calls.map((c) => c.body)).size).toBe(1);
  });

  it('retries a dead receiver and one that does not answer in time, and gives up after the last attempt', async () => {
    const dead = `http://127.0.0.1:${await freePort()}/hook`;
    await add('adminA', { url: dead, events: ['terminal.offline'], secret: SECRET });
    await sendBatch([{ type: 'connection', time: new Date(Date.now() - 5_000).toISOString(), state: 'disconnected' }]);
    expect(await dispatcher().runOnce()).toEqual({ sent: 0, failed: 1 });
    let [d] = await deliveries();
    expect(d).toMatchObject({ attempts: 1, last_status: null, sent_at: null });
    expect(d!.last_error).toBe(deliveryErrorMessages.connect);

    await t.db.updateTable('webhooks').set({ url: rx.url }).execute();
    rx.state.hang = true;
    clock.advance(MINUTE);
    expect(await dispatcher(300).runOnce()).toEqual({ sent: 0, failed: 1 });
    rx.state.hang = false;
    [d] = await deliveries();
    expect(d).toMatchObject({ attempts: 2, sent_at: null });
    expect(d!.last_error).toBe(deliveryErrorMessages.timeout);

    await t.db.updateTable('webhook_deliveries').set({ attempts: WEBHOOK_MAX_ATTEMPTS }).execute();
    clock.advance(24 * 60 * MINUTE);
    expect(await dispatcher().runOnce()).toEqual({ sent: 0, failed: 0 });
    const log = await call(webhookDeliveryList, { status: 'failed' }, 'adminA');
    expect(log.body).toMatchObject({ count: 1, list: [{ event_type: 'terminal.offline', status: 'failed' }] });
  });

  it('sends command state changes with the result to the command company receivers only', async () => {
    await queueCommandEvents(t.db, clock.now());
    await add('adminA', { url: rx.url, events: ['command'], secret: SECRET });
    await add('adminB', { url: rxB.url, events: ['command'], secret: SECRET });
    const id = await reserveCommand(t.db, {
      car_data_id: fleet.A.car_data_id,
      cmd_type: 'set_engine_boot_permission',
      cmd_info: { cmd: 1 },
      created_by: accounts.adminA.account_id,
    });
    await t.db
      .insertInto('reserved_command_events')
      .values({ command_id: id, state: 2, event: 'succeeded', account_id: null, at: clock.now() })
      .execute();
    await t.db
      .updateTable('reserved_commands')
      .set({ state: 2, result: JSON.stringify({ success: true, detail: '完了' }) })
      .where('id', '=', id)
      .execute();
    expect(await queueCommandEvents(t.db, clock.now())).toBe(2);
    expect(await queueCommandEvents(t.db, clock.now())).toBe(0);
    await dispatcher().runOnce();
    const bodies = rx.calls.map((c) => JSON.parse(c.body) as WebhookEventBody);
    expect(bodies.map((b) => b.data.event)).toEqual(['reserved', 'succeeded']);
    expect(bodies[1]).toMatchObject({
      type: 'command',
      company_id: fleet.A.company_id,
      data: { command_id: id, result: { success: true } },
    });
    expect(rxB.calls).toHaveLength(0);

    const log = await call(webhookDeliveryList, {}, 'adminA');
    expect(log.body).toMatchObject({
      count: 2,
      list: [{ status: 'sent', event_type: 'command', last_status: 200 }, {}],
    });
    expect((await call(webhookDeliveryList, {}, 'adminB')).body.count).toBe(0);
  });
});
