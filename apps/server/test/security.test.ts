import { errorMessages, login as loginCall, me } from '@fleet/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_PASSWORD, accounts, callAs, createSignedInApp, post, type SignedInApp } from './helper.js';

let t: SignedInApp;
beforeAll(async () => {
  t = await createSignedInApp(['adminA']);
});
afterAll(() => t?.close());

describe('security headers', () => {
  it.each([
    [
      'a successful call',
      async () => (await callAs(t.app, undefined, loginCall, { username: 'staff-a', password: FIXTURE_PASSWORD })).raw,
    ],
    ['a failed call', async () => (await callAs(t.app, undefined, me)).raw],
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
      const res = await callAs(t.app, undefined, loginCall, { username: a.email, password: FIXTURE_PASSWORD });
      const self = await callAs(t.app, res.body.token, me, {});
      for (const body of [res.raw.body, self.raw.body]) {
        expect(body).not.toMatch(/password|scrypt\$/);
      }
    }
  });

  it('answer an unknown API path with 404 and the error shape', async () => {
    // Deliberately no call of the contract.
    const res = await post(t.app, '/api/no_such_call', {}, t.tokens.adminA);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ code: 'NOT_FOUND', message: errorMessages.notFound });
  });
});
