import { login } from '@fleet/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { callAsFrom, createTestApp, type TestApp } from '../helper.js';

/**
 * Issue 13: `TRUST_PROXY=1` trusted every hop, so a client that sent its own
 * X-Forwarded-For escaped the per-IP limits. With a hop count, only the entry
 * the trusted proxy appended (the last one) is the client's address.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { TRUST_PROXY: '1' } });
});
afterAll(() => t?.close());

it('with TRUST_PROXY=1 a client-chosen X-Forwarded-For entry does not change the IP the limits see', async () => {
  const guess = (i: number) =>
    callAsFrom(
      t.app,
      undefined,
      login,
      { username: `nobody-${i}`, password: 'wrong-password' },
      // The proxy (127.0.0.1 here) appended the real client, 203.0.113.50; the first entry is the client's invention.
      { headers: { 'x-forwarded-for': `10.9.${Math.floor(i / 250)}.${i % 250}, 203.0.113.50` } },
    );
  const statuses: number[] = [];
  for (let i = 0; i < 11; i++) statuses.push((await guess(i)).status);
  expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401));
  expect(statuses[10]).toBe(429);
  // Another client behind the same proxy is not limited.
  const other = await callAsFrom(
    t.app,
    undefined,
    login,
    { username: 'nobody-else', password: 'wrong-password' },
    { headers: { 'x-forwarded-for': '203.0.113.51' } },
  );
  expect(other.status).toBe(401);
});
