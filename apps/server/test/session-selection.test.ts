import { errorMessages } from '@fleet/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, fleet, login, post, seedFixtures, type TestApp } from './helper.js';

/** The session_* calls: each stores one selected id, within the caller's company. */
let t: TestApp;
let adminA: string;
let superAdmin: string;
beforeAll(async () => {
  t = await createTestApp();
  await seedFixtures(t.db);
  adminA = await login(t.app, 'adminA');
  superAdmin = await login(t.app, 'superAdmin');
});
afterAll(() => t?.close());

const selection = async (token: string) =>
  (await post(t.app, '/api/me', {}, token)).json().selection as Record<string, string | null>;

// call, the key it stores, an id in company A, the same kind of id in company B
const calls = [
  ['/api/session_account_id', 'account_id', 'manager-a', 'admin-b'],
  ['/api/session_company_id', 'company_id', fleet.A.company_id, fleet.B.company_id],
  ['/api/session_car_id', 'car_id', fleet.A.car_id, fleet.B.car_id],
  ['/api/session_user_id', 'user_id', fleet.A.user_id, fleet.B.user_id],
  ['/api/session_data_id', 'car_data_id', fleet.A.car_data_id, fleet.B.car_data_id],
  ['/api/session_device_id', 'car_device_id', fleet.A.car_device_id, fleet.B.car_device_id],
] as const;

describe.each(calls)('%s', (path, key, ownId, otherCompanyId) => {
  it('stores an id of the own company, visible through /api/me', async () => {
    const res = await post(t.app, path, { [key]: ownId }, adminA);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ok: true });
    expect((await selection(adminA))[key]).toBe(ownId);
  });

  it('answers 404 for an id in another company and keeps the selection', async () => {
    const res = await post(t.app, path, { [key]: otherCompanyId }, adminA);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ code: 'NOT_FOUND', message: errorMessages.notFound });
    expect((await selection(adminA))[key]).toBe(ownId);
  });

  it('answers 404 for an id that does not exist', async () => {
    expect((await post(t.app, path, { [key]: 'no-such-id' }, adminA)).statusCode).toBe(404);
  });

  it('lets the super admin select across companies', async () => {
    expect((await post(t.app, path, { [key]: otherCompanyId }, superAdmin)).statusCode).toBe(200);
    expect((await selection(superAdmin))[key]).toBe(otherCompanyId);
  });

  it('answers 401 without a token', async () => {
    const res = await post(t.app, path, { [key]: ownId });
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe('UNAUTHORIZED');
  });
});

describe('selection scope by role', () => {
  it('lets a common account select only its own account', async () => {
    const staff = await login(t.app, 'staffA');
    expect((await post(t.app, '/api/session_account_id', { account_id: 'manager-a' }, staff)).statusCode).toBe(404);
    expect((await post(t.app, '/api/session_account_id', { account_id: 'staff-a' }, staff)).statusCode).toBe(200);
  });

  it('keeps each session its own selection', async () => {
    const second = await login(t.app, 'adminA');
    await post(t.app, '/api/session_car_id', { car_id: fleet.A.car_id }, adminA);
    expect((await selection(second)).car_id).toBeNull();
  });
});
