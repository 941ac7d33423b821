import { connect, type Socket } from 'node:net';
import { DEVICE_BATCH_PATH, login } from '@fleet/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, fleet, seedFixtures, type TestApp } from '../helper.js';
import { basic } from '../telemetry-support.js';

/**
 * Slow and stalled clients over real sockets (issue 13): before, requestTimeout
 * was 0 and the gateway read a whole 4 MB body before checking the terminal,
 * so clients that stalled or trickled held memory for as long as they liked.
 * Here the timeouts are short (the defaults are in config.ts and the README).
 */
const REQUEST_TIMEOUT_MS = 1000;
/** Node checks the timeouts on an interval (a quarter of the header timeout here, at most 1 s). */
const GRACE_MS = 2000;
const TOO_LONG_MS = REQUEST_TIMEOUT_MS + GRACE_MS;

let t: TestApp;
let port: number;
beforeAll(async () => {
  t = await createTestApp({
    env: { REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS), HEADERS_TIMEOUT_MS: '500', CONNECTION_TIMEOUT_MS: '5000' },
  });
  await seedFixtures(t.db);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as { port: number }).port;
});
afterAll(() => t?.close());

interface Client {
  socket: Socket;
  /** Everything the server sent so far. */
  received: () => string;
  /** Resolves with the milliseconds from connecting until the server closed the connection. */
  closed: Promise<number>;
}

function open(): Promise<Client> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const socket = connect(port, '127.0.0.1');
    let text = '';
    socket.on('data', (d) => (text += d.toString('latin1')));
    socket.on('error', () => {});
    const closed = new Promise<number>((done) => socket.on('close', () => done(Date.now() - started)));
    socket.once('connect', () => resolve({ socket, received: () => text, closed }));
    socket.once('error', reject);
  });
}

/** The time the server took to close the connection, or Infinity when it was still open after `limit`. */
const closedWithin = (c: Client, limit: number) =>
  Promise.race([c.closed, new Promise<number>((r) => setTimeout(() => r(Infinity), limit).unref())]);

const head = (path: string, length: number, extra = '') =>
  `POST ${path} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n${extra}\r\n`;

describe('timeouts on every connection', () => {
  it('closes a client that sends all but the last bytes of a body and stalls', async () => {
    const c = await open();
    const body = JSON.stringify({ username: 'nobody', password: 'x'.repeat(2000) });
    c.socket.write(head(login.path, body.length) + body.slice(0, -10));
    const ms = await closedWithin(c, TOO_LONG_MS + 3000);
    expect(ms).toBeLessThanOrEqual(TOO_LONG_MS);
    c.socket.destroy();
  });

  it('closes a client that trickles its body a byte at a time', async () => {
    const c = await open();
    c.socket.write(head(login.path, 10_000));
    const trickle = setInterval(() => c.socket.writable && c.socket.write('x'), 200);
    try {
      const ms = await closedWithin(c, TOO_LONG_MS + 3000);
      expect(ms).toBeLessThanOrEqual(TOO_LONG_MS);
    } finally {
      clearInterval(trickle);
      c.socket.destroy();
    }
  });

  it('closes a client whose headers never end', async () => {
    const c = await open();
    c.socket.write(`POST ${login.path} HTTP/1.1\r\nHost: localhost\r\n`);
    const trickle = setInterval(() => c.socket.writable && c.socket.write('X-A: b\r\n'), 100);
    try {
      const ms = await closedWithin(c, TOO_LONG_MS + 3000);
      expect(ms).toBeLessThanOrEqual(TOO_LONG_MS);
    } finally {
      clearInterval(trickle);
      c.socket.destroy();
    }
  });
});

describe('many stalled clients at once', () => {
  it('closes 100 terminals that each send all but the last kilobyte of a 4 MB batch, and then answers as before', async () => {
    // With valid credentials the gateway reads the body: what bounds the memory they hold is the timeout.
    const length = 4 * 1024 * 1024;
    const chunk = ' '.repeat(64 * 1024);
    const clients = await Promise.all(Array.from({ length: 100 }, () => open()));
    for (const c of clients) {
      c.socket.write(head(DEVICE_BATCH_PATH, length, `Authorization: ${basic(fleet.A.car_device_id)}\r\n`));
      c.socket.write(`{"seq":1,"records":[`);
    }
    // Most of each body (the sockets' buffers permitting), then nothing more.
    for (let sent = 0; sent < length - 1024 - chunk.length; sent += chunk.length)
      for (const c of clients) if (c.socket.writable && c.socket.writableLength < 1024 * 1024) c.socket.write(chunk);
    const closed = await Promise.all(clients.map((c) => closedWithin(c, TOO_LONG_MS + 5000)));
    expect(closed.filter((ms) => ms === Infinity)).toHaveLength(0);
    for (const c of clients) c.socket.destroy();
    const res = await fetch(`http://127.0.0.1:${port}/healthz`);
    expect(res.status).toBe(200);
  });
});

describe('the gateway checks the terminal before reading the body', () => {
  it.each([
    ['a wrong password', basic(fleet.A.car_device_id, 'wrong-secret')],
    ['no credentials', undefined],
  ])('answers a 4 MB batch with %s 401 while the client is still sending it', async (_label, authorization) => {
    const c = await open();
    const length = 4 * 1024 * 1024 - 100;
    c.socket.write(head(DEVICE_BATCH_PATH, length, authorization ? `Authorization: ${authorization}\r\n` : ''));
    // A first part of the body, then nothing: an answer now was given without the rest.
    c.socket.write(`{"seq":1,"records":[${' '.repeat(64 * 1024)}`);
    const started = Date.now();
    await new Promise<void>((resolve) => {
      const poll = setInterval(() => {
        if (c.received().includes('\r\n\r\n') || c.socket.destroyed || Date.now() - started > 5000) {
          clearInterval(poll);
          resolve();
        }
      }, 10);
    });
    expect(c.received()).toMatch(/^HTTP\/1\.1 401 /);
    // Once refused, the connection ends rather than take the remaining 4 MB.
    expect(c.received()).toMatch(/\r\nconnection: close\r\n/i);
    expect(await closedWithin(c, 1000)).toBeLessThan(Infinity);
    c.socket.destroy();
  });
});
