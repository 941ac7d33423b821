import { errorMessages } from '@fleet/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_PASSWORD, accounts, createTestApp, login, post, seedFixtures, type TestApp } from './helper.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await seedFixtures(t.db);
});
afterAll(() => t?.close());

describe('security headers', () => {
  it.each([
    ['a successful call', () => post(t.app, '/api/login', { username: 'staff-a', password: FIXTURE_PASSWORD })],
    ['a failed call', () => post(t.app, '/api/me')],
    ['an unknown path', () => t.app.inject({ method: 'GET', url: '/nowhere' })],
  ])('are sent on %s', async (_label, send) => {
    const res = await send();
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("default-src 'self'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });
});

describe('responses', () => {
  it('never carry a password hash', async () => {
    for (const a of Object.values(accounts)) {
      const res = await post(t.app, '/api/login', { username: a.email, password: FIXTURE_PASSWORD });
      const me = await post(t.app, '/api/me', {}, res.json().token);
      for (const body of [res.body, me.body]) {
        expect(body).not.toMatch(/password|scrypt\$/);
      }
    }
  });

  it('answer an unknown API path with 404 and the error shape', async () => {
    const res = await post(t.app, '/api/no_such_call', {}, await login(t.app, 'adminA'));
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ code: 'NOT_FOUND', message: errorMessages.notFound });
  });
});
