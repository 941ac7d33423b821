import { sessionMessages } from '@fleet/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOGIN_LIMITS } from '../src/auth/login-limit.js';
import { FIXTURE_PASSWORD, createTestApp, seedFixtures, type TestApp } from './helper.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await seedFixtures(t.db);
});
afterAll(() => t?.close());

const attempt = (remoteAddress: string, password: string) =>
  t.app.inject({ method: 'POST', url: '/api/login', remoteAddress, payload: { username: 'admin-a', password } });

describe('login rate limit', () => {
  it('answers 429 in Japanese once one IP has failed too often, and spares other IPs', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 20; i++) statuses.push((await attempt('203.0.113.7', `wrong-${i}`)).statusCode);

    const allowed = LOGIN_LIMITS.perIpPerMinute;
    expect(statuses.slice(0, allowed)).toEqual(Array(allowed).fill(401));
    expect(statuses.slice(allowed)).toEqual(Array(20 - allowed).fill(429));

    const limited = await attempt('203.0.113.7', FIXTURE_PASSWORD);
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual({ code: 'TOO_MANY_REQUESTS', message: sessionMessages.tooManyAttempts });

    expect((await attempt('198.51.100.20', FIXTURE_PASSWORD)).statusCode).toBe(200);
  });

  it('also holds against a burst of simultaneous guesses', async () => {
    const burst = await Promise.all(Array.from({ length: 30 }, (_, i) => attempt('203.0.113.8', `burst-${i}`)));
    const statuses = burst.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(LOGIN_LIMITS.perIpPerMinute);
    expect(statuses.filter((s) => s !== 401 && s !== 429)).toEqual([]);
  });
});
