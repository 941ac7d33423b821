import { createServer, type Socket } from 'node:net';
import {
  deliveryErrorMessages,
  webhookAdd,
  webhookDeliveryList,
  webhookMessages,
  webhookUpdate,
  DEVICE_BATCH_PATH,
} from '@fleet/contract';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { up as categoriseOldErrors } from '../src/db/migrations/2026_12_18_100000_delivery_error_categories.js';
import type { ResolvedAddress } from '../src/outbox/index.js';
import { WebhookDispatcher } from '../src/webhooks/webhook-dispatcher.js';
import { createSignedInApp, fleet, type SignedInApp } from './helper.js';
import { memoryLog, MINUTE, testClock } from './notify-support.js';
import { startWebhookReceiver, type WebhookReceiver } from './webhook-receiver.js';

/**
 * Server-side request forgery through webhooks (docs/security.md "Outbound calls"): this app runs with the
 * default configuration, so receivers on this machine or an internal network are refused when saved and
 * never connected to when delivered; the delivery log says why in a word, never with an address and port.
 */
let t: SignedInApp;
let rx: WebhookReceiver;
const clock = testClock();

beforeAll(async () => {
  [t, rx] = await Promise.all([createSignedInApp(['adminA', 'superAdmin']), startWebhookReceiver()]);
});
afterAll(async () => {
  await rx?.close();
  await t?.close();
});
beforeEach(async () => {
  await t.db.deleteFrom('webhooks').execute();
  rx.calls.length = 0;
  clock.set(new Date(Date.now() + MINUTE));
});

const port = () => new URL(rx.url).port;
const webhookRows = () => t.db.selectFrom('webhooks').select(['id', 'url']).orderBy('id').execute();
const deliveries = () => t.db.selectFrom('webhook_deliveries').selectAll().orderBy('id').execute();

/** A resolver that answers from a table and counts its questions, as DNS would for these names. */
function stubResolver(table: Record<string, string[]>) {
  const asked: string[] = [];
  const resolve = (host: string): Promise<ResolvedAddress[]> => {
    asked.push(host);
    const addresses = table[host];
    if (!addresses)
      return Promise.reject(Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' }));
    return Promise.resolve(addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })));
  };
  return { asked, resolve };
}

const dispatcher = (opts: { allowPrivate?: boolean; resolve?: (host: string) => Promise<ResolvedAddress[]> } = {}) =>
  new WebhookDispatcher({
    db: t.db,
    log: memoryLog().log,
    clock: clock.now,
    timeoutMs: 2_000,
    allowPrivate: opts.allowPrivate ?? t.config.WEBHOOK_ALLOW_PRIVATE,
    ...(opts.resolve ? { resolve: opts.resolve } : {}),
  });

let seq = 1;
/** A terminal event of company A, queued for every receiver that wants terminal.offline. */
async function queueOneEvent() {
  const res = await t.app.inject({
    method: 'POST',
    url: DEVICE_BATCH_PATH,
    headers: { authorization: `Basic ${Buffer.from(`${fleet.A.car_device_id}:terminal-secret`).toString('base64')}` },
    payload: {
      seq: seq++,
      records: [{ type: 'connection', time: new Date(Date.now() - seq * 1000).toISOString(), state: 'disconnected' }],
    },
  });
  expect(res.statusCode, res.body).toBe(200);
}

/** A receiver row written as a deployment with WEBHOOK_ALLOW_PRIVATE=1 saved it, before the flag was turned off. */
async function storedReceiver(url: string) {
  await t.db
    .insertInto('webhooks')
    .values({
      company_id: fleet.A.company_id,
      url,
      secret: 'test-secret-0123456789abcdef',
      events: JSON.stringify(['terminal.offline']),
      enabled: true,
      description: '',
      created_at: new Date(),
      updated_at: new Date(),
    })
    .execute();
}

/** Internal addresses in the spellings a URL can carry them. */
const internalTargets = [
  'http://127.0.0.1/hook',
  'http://127.0.0.1:4159/hook',
  'http://localhost/hook',
  'http://LOCALHOST.:8080/hook',
  'http://api.localhost/hook',
  'http://127.1/hook',
  'http://0x7f000001/hook',
  'http://0x7f.0.0.1/hook',
  'http://2130706433/hook',
  'http://0177.0.0.1/hook',
  'http://017700000001/hook',
  'https://１２７.０.０.１/hook',
  'http://0.0.0.0/hook',
  'http://0/hook',
  'http://169.254.169.254/latest/meta-data/',
  'http://10.1.2.3/hook',
  'http://172.16.0.1/hook',
  'http://192.168.10.20/hook',
  'http://100.64.0.1/hook',
  'http://224.0.0.1/hook',
  'http://255.255.255.255/hook',
  'http://240.0.0.1/hook',
  'http://[::1]/hook',
  'http://[::]/hook',
  'http://[::ffff:127.0.0.1]/hook',
  'http://[::ffff:7f00:1]/hook',
  'http://[::ffff:169.254.169.254]/hook',
  'http://[::127.0.0.1]/hook',
  'http://[64:ff9b::127.0.0.1]/hook',
  'http://[64:ff9b::a00:1]/hook',
  'http://[2002:7f00:1::1]/hook',
  'http://[fc00::1]/hook',
  'http://[fd12:3456:789a::1]/hook',
  'http://[fe80::1]/hook',
  'http://[ff02::1]/hook',
];

describe('webhook targets when saved', () => {
  it('refuses every internal address and localhost, in every spelling, with a Japanese field error and nothing stored', async () => {
    for (const url of internalTargets) {
      const res = await t.call(webhookAdd, { url, events: ['terminal.offline'] }, 'adminA');
      expect(res.status, url).toBe(400);
      expect(res.error.errors, url).toEqual({ url: webhookMessages.privateTarget });
    }
    expect(await webhookRows()).toEqual([]);
  });

  it('refuses them on update too, for the super admin as well, and keeps the saved URL', async () => {
    const saved = await t.call(
      webhookAdd,
      { url: 'https://hooks.example.jp/fleet', events: ['terminal.offline'] },
      'superAdmin',
    );
    expect(saved.status).toBe(200);
    const id = saved.body.webhook.id;
    for (const url of internalTargets) {
      const res = await t.call(webhookUpdate, { id, url, events: ['terminal.offline'] }, 'superAdmin');
      expect(res.status, url).toBe(400);
      expect(res.error.errors, url).toEqual({ url: webhookMessages.privateTarget });
    }
    expect(await webhookRows()).toEqual([{ id, url: 'https://hooks.example.jp/fleet' }]);
  });

  it('accepts host names and public addresses', async () => {
    for (const url of [
      'https://hooks.example.jp/fleet',
      'http://93.184.216.34/hook',
      'http://[2606:4700:4700::1111]:8443/hook',
      'https://localhost.example.jp/hook',
    ]) {
      const res = await t.call(webhookAdd, { url, events: ['command'] }, 'adminA');
      expect(res.status, url).toBe(200);
    }
  });
});

describe('webhook targets when delivered', () => {
  it('never connects to a stored internal address; the log says the target is not allowed', async () => {
    for (const host of ['127.0.0.1', 'localhost', '[::ffff:127.0.0.1]', '0x7f000001']) {
      await storedReceiver(`http://${host}:${port()}/hook`);
    }
    await queueOneEvent();
    expect(await dispatcher().runOnce()).toEqual({ sent: 0, failed: 4 });
    expect(rx.calls).toHaveLength(0);
    for (const d of await deliveries()) {
      expect(d).toMatchObject({ attempts: 1, last_status: null, sent_at: null });
      expect(d.last_error).toBe(deliveryErrorMessages.blocked);
    }
  });

  it('refuses a host name that resolves to an internal address, when any of its addresses is one', async () => {
    const dns = stubResolver({
      'rebind.example.jp': ['127.0.0.1'],
      'mixed.example.jp': ['93.184.216.34', '127.0.0.1'],
      'metadata.example.jp': ['::ffff:169.254.169.254'],
      'v6.example.jp': ['2606:4700:4700::1111', 'fd00::1'],
    });
    for (const host of ['rebind.example.jp', 'mixed.example.jp']) {
      await storedReceiver(`http://${host}:${port()}/hook`);
    }
    await storedReceiver(`https://metadata.example.jp/latest/meta-data/`);
    await storedReceiver(`http://v6.example.jp:${port()}/hook`);
    await queueOneEvent();
    expect(await dispatcher({ resolve: dns.resolve }).runOnce()).toEqual({ sent: 0, failed: 4 });
    expect(rx.calls).toHaveLength(0);
    expect((await deliveries()).map((d) => d.last_error)).toEqual(Array(4).fill(deliveryErrorMessages.blocked));
  });

  it('says a name that does not resolve in a word', async () => {
    await storedReceiver('https://nowhere.example.jp/hook');
    await queueOneEvent();
    const dns = stubResolver({});
    expect(await dispatcher({ resolve: dns.resolve }).runOnce()).toEqual({ sent: 0, failed: 1 });
    expect((await deliveries())[0]!.last_error).toBe(deliveryErrorMessages.dns);
  });

  it('with WEBHOOK_ALLOW_PRIVATE, connects to the address it resolved once, with the host name in Host', async () => {
    await storedReceiver(`http://hooks.example.jp:${port()}/hook`);
    await queueOneEvent();
    const dns = stubResolver({ 'hooks.example.jp': ['127.0.0.1'] });
    // Without the flag the same answer is refused; with it the receiver is reached through that answer
    // alone: the system resolver does not know the name, so a second resolution would have failed.
    expect(await dispatcher({ resolve: dns.resolve }).runOnce()).toEqual({ sent: 0, failed: 1 });
    expect(rx.calls).toHaveLength(0);
    clock.advance(MINUTE);
    dns.asked.length = 0;
    expect(await dispatcher({ allowPrivate: true, resolve: dns.resolve }).runOnce()).toEqual({ sent: 1, failed: 0 });
    expect(dns.asked).toEqual(['hooks.example.jp']);
    expect(rx.calls).toHaveLength(1);
    expect(rx.calls[0]!.headers.host).toBe(`hooks.example.jp:${port()}`);
  });

  it('sends TLS to the checked address with the host name as SNI', async () => {
    // A TCP listener that keeps the first bytes of the client's TLS hello, where SNI travels in clear.
    const hello: Buffer[] = [];
    const sockets = new Set<Socket>();
    const server = createServer((s) => {
      sockets.add(s);
      s.once('data', (chunk: Buffer) => {
        hello.push(chunk);
        s.destroy();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const tlsPort = (server.address() as { port: number }).port;
    try {
      await storedReceiver(`https://secure.example.jp:${tlsPort}/hook`);
      await queueOneEvent();
      const dns = stubResolver({ 'secure.example.jp': ['127.0.0.1'] });
      expect(await dispatcher({ allowPrivate: true, resolve: dns.resolve }).runOnce()).toEqual({ sent: 0, failed: 1 });
      expect(hello).toHaveLength(1);
      expect(hello[0]!.includes(Buffer.from('secure.example.jp'))).toBe(true);
      const [d] = await deliveries();
      expect([deliveryErrorMessages.tls, deliveryErrorMessages.connect]).toContain(d!.last_error);
    } finally {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('logs a closed port as a category, never the address and port it tried', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const closedPort = (closed.address() as { port: number }).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    await storedReceiver(`http://127.0.0.1:${closedPort}/hook`);
    await queueOneEvent();
    expect(await dispatcher({ allowPrivate: true }).runOnce()).toEqual({ sent: 0, failed: 1 });
    const log = await t.call(webhookDeliveryList, {}, 'adminA');
    expect(log.body.list[0]!.last_error).toBe(deliveryErrorMessages.connect);
    const text = JSON.stringify(log.body.list.map(({ url: _url, ...row }) => row));
    expect(text).not.toContain(String(closedPort));
    expect(text).not.toMatch(/127\.0\.0\.1|ECONNREFUSED|connect /);
  });
});

describe('delivery log rows written before the categories', () => {
  it('lose the address and port of the socket error; answers and other messages stay', async () => {
    await storedReceiver(`http://127.0.0.1:${port()}/hook`);
    await queueOneEvent();
    await queueOneEvent();
    await queueOneEvent();
    await queueOneEvent();
    await queueOneEvent();
    const ids = (await deliveries()).map((d) => d.id);
    const old = [
      'fetch failed: connect ECONNREFUSED 127.0.0.1:4159',
      'fetch failed: getaddrinfo ENOTFOUND hooks.internal',
      'The operation was aborted due to timeout',
      'HTTP 500',
      'fetch failed: other side closed',
    ];
    for (const [i, id] of ids.entries()) {
      await t.db.updateTable('webhook_deliveries').set({ last_error: old[i] }).where('id', '=', id).execute();
    }
    // The migration is written against no schema type (Kysely<unknown>), as every migration is.
    await categoriseOldErrors(t.db as unknown as Kysely<unknown>);
    expect((await deliveries()).map((d) => d.last_error)).toEqual([
      deliveryErrorMessages.connect,
      deliveryErrorMessages.dns,
      deliveryErrorMessages.timeout,
      'HTTP 500',
      deliveryErrorMessages.other,
    ]);
  });
});
