import { errorMessages } from '@fleet/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, login, post, seedFixtures, type TestApp } from './helper.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await seedFixtures(t.db);
});
afterAll(() => t?.close());

const unauthorizedBody = { code: 'UNAUTHORIZED', message: errorMessages.unauthorized };

describe('/api/logout', () => {
  it('revokes the token it was called with, and only that one', async () => {
    const [token, other] = [await login(t.app, 'managerA'), await login(t.app, 'managerA')];
    expect((await post(t.app, '/api/logout', {}, token)).json()).toEqual({ ok: true });

    const after = await post(t.app, '/api/me', {}, token);
    expect(after.statusCode).toBe(401);
    expect(after.json()).toEqual(unauthorizedBody);
    expect((await post(t.app, '/api/logout', {}, token)).statusCode).toBe(401);
    expect((await post(t.app, '/api/me', {}, other)).statusCode).toBe(200);
  });
});

describe('/api/checkToken', () => {
  let token: string;
  beforeAll(async () => {
    token = await login(t.app, 'staffA');
  });

  it.each([
    ['the right account and token', () => ({ account_id: 'staff-a', token }), true],
    [
      'a tampered token',
      () => ({ account_id: 'staff-a', token: `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}` }),
      false,
    ],
    ['another account id', () => ({ account_id: 'admin-a', token }), false],
  ])('answers %s', async (_label, body, ok) => {
    const res = await post(t.app, '/api/checkToken', body());
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ok });
  });

  it('answers false once the token is logged out', async () => {
    const gone = await login(t.app, 'staffA');
    await post(t.app, '/api/logout', {}, gone);
    expect((await post(t.app, '/api/checkToken', { account_id: 'staff-a', token: gone })).json()).toEqual({
      ok: false,
    });
  });
});

describe('/api/me', () => {
  it('describes the signed-in account, its company and an empty selection', async () => {
    const res = await post(t.app, '/api/me', {}, await login(t.app, 'adminA'));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      account_id: 'admin-a',
      name: '加盟 一郎',
      role: 0,
      company_id: 'company-a',
      company_name: '株式会社テストA',
      engine_control: true,
      stepped_up_until: null,
      selection: {
        account_id: null,
        company_id: null,
        car_id: null,
        user_id: null,
        car_data_id: null,
        car_device_id: null,
      },
    });
  });

  it('gives the super admin no company', async () => {
    const res = await post(t.app, '/api/me', {}, await login(t.app, 'superAdmin'));
    expect(res.json()).toMatchObject({ account_id: 'super-admin', company_id: null, company_name: null });
  });

  it.each([
    ['no token', {}],
    ['another scheme', { authorization: 'Basic YWRtaW46eA==' }],
    ['an unknown token', { authorization: 'Bearer not-a-real-token' }],
    ['an oversized token', { authorization: `Bearer ${'x'.repeat(5000)}` }],
  ])('answers %s with 401', async (_label, headers) => {
    const res = await t.app.inject({ method: 'POST', url: '/api/me', payload: {}, headers });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual(unauthorizedBody);
  });

  it('ends the sessions of an account once it is deleted', async () => {
    const token = await login(t.app, 'adminB');
    await t.db.updateTable('accounts').set({ is_delete: true }).where('account_id', '=', 'admin-b').execute();
    expect((await post(t.app, '/api/me', {}, token)).statusCode).toBe(401);
  });
});
