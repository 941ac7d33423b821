import { checkToken, errorMessages, logout, me as meCall } from '@fleet/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callAs, callAsFrom, createTestApp, login, seedFixtures, type TestApp } from './helper.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await seedFixtures(t.db);
});
afterAll(() => t?.close());

const unauthorizedBody = { code: 'UNAUTHORIZED', message: errorMessages.unauthorized };

describe(logout.path, () => {
  it('revokes the token it was called with, and only that one', async () => {
    const [token, other] = [await login(t.app, 'managerA'), await login(t.app, 'managerA')];
    expect((await callAs(t.app, token, logout, {})).body).toEqual({ ok: true });

    const after = await callAs(t.app, token, meCall, {});
    expect(after.status).toBe(401);
    expect(after.raw.json()).toEqual(unauthorizedBody);
    expect((await callAs(t.app, token, logout, {})).status).toBe(401);
    expect((await callAs(t.app, other, meCall, {})).status).toBe(200);
  });
});

describe(checkToken.path, () => {
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
    const res = await callAs(t.app, undefined, checkToken, body());
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok });
  });

  it('answers false once the token is logged out', async () => {
    const gone = await login(t.app, 'staffA');
    await callAs(t.app, gone, logout, {});
    expect((await callAs(t.app, undefined, checkToken, { account_id: 'staff-a', token: gone })).body).toEqual({
      ok: false,
    });
  });
});

describe(meCall.path, () => {
  it('describes the signed-in account, its company and an empty selection', async () => {
    const res = await callAs(t.app, await login(t.app, 'adminA'), meCall, {});
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
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
      groups_limited: false,
    });
  });

  it('gives the super admin no company', async () => {
    const res = await callAs(t.app, await login(t.app, 'superAdmin'), meCall, {});
    expect(res.body).toMatchObject({ account_id: 'super-admin', company_id: null, company_name: null });
  });

  it.each([
    ['no token', {}],
    ['another scheme', { authorization: 'Basic YWRtaW46eA==' }],
    ['an unknown token', { authorization: 'Bearer not-a-real-token' }],
    ['an oversized token', { authorization: `Bearer ${'x'.repeat(5000)}` }],
  ])('answers %s with 401', async (_label, headers) => {
    const res = await callAsFrom(t.app, undefined, meCall, {}, { headers });
    expect(res.status).toBe(401);
    expect(res.raw.json()).toEqual(unauthorizedBody);
  });

  it('ends the sessions of an account once it is deleted', async () => {
    const token = await login(t.app, 'adminB');
    await t.db.updateTable('accounts').set({ is_delete: true }).where('account_id', '=', 'admin-b').execute();
    expect((await callAs(t.app, token, meCall, {})).status).toBe(401);
  });
});
