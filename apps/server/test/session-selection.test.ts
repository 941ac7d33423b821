import {
  errorMessages,
  me as meCall,
  sessionAccountId,
  sessionCarId,
  sessionCompanyId,
  sessionDataId,
  sessionDeviceId,
  sessionUserId,
  type CallRequest,
} from '@fleet/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callAs, createTestApp, fleet, login, seedFixtures, type TestApp } from './helper.js';

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
  (await callAs(t.app, token, meCall, {})).body.selection as Record<string, string | null>;

// call, the key it stores, an id in company A, the same kind of id in company B
const calls = [
  [sessionAccountId, 'account_id', 'manager-a', 'admin-b'],
  [sessionCompanyId, 'company_id', fleet.A.company_id, fleet.B.company_id],
  [sessionCarId, 'car_id', fleet.A.car_id, fleet.B.car_id],
  [sessionUserId, 'user_id', fleet.A.user_id, fleet.B.user_id],
  [sessionDataId, 'car_data_id', fleet.A.car_data_id, fleet.B.car_data_id],
  [sessionDeviceId, 'car_device_id', fleet.A.car_device_id, fleet.B.car_device_id],
] as const;

describe.each(calls.map((row) => [row[0].path, ...row] as const))('%s', (_path, call, key, ownId, otherCompanyId) => {
  /** The call with `key` set to `id` (one key per call, which TypeScript cannot follow through the table). */
  const select = (id: string, token?: string) => callAs(t.app, token, call, { [key]: id } as CallRequest<typeof call>);

  it(`stores an id of the own company, visible through ${meCall.path}`, async () => {
    const res = await select(ownId, adminA);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true });
    expect((await selection(adminA))[key]).toBe(ownId);
  });

  it('answers 404 for an id in another company and keeps the selection', async () => {
    const res = await select(otherCompanyId, adminA);
    expect(res.status).toBe(404);
    expect(res.raw.json()).toEqual({ code: 'NOT_FOUND', message: errorMessages.notFound });
    expect((await selection(adminA))[key]).toBe(ownId);
  });

  it('answers 404 for an id that does not exist', async () => {
    expect((await select('no-such-id', adminA)).status).toBe(404);
  });

  it('lets the super admin select across companies', async () => {
    expect((await select(otherCompanyId, superAdmin)).status).toBe(200);
    expect((await selection(superAdmin))[key]).toBe(otherCompanyId);
  });

  it('answers 401 without a token', async () => {
    const res = await select(ownId);
    expect(res.status).toBe(401);
    expect(res.error.code).toBe('UNAUTHORIZED');
  });
});

describe('selection scope by role', () => {
  it('lets a common account select only its own account', async () => {
    const staff = await login(t.app, 'staffA');
    expect((await callAs(t.app, staff, sessionAccountId, { account_id: 'manager-a' })).status).toBe(404);
    expect((await callAs(t.app, staff, sessionAccountId, { account_id: 'staff-a' })).status).toBe(200);
  });

  it('keeps each session its own selection', async () => {
    const second = await login(t.app, 'adminA');
    await callAs(t.app, adminA, sessionCarId, { car_id: fleet.A.car_id });
    expect((await selection(second)).car_id).toBeNull();
  });
});
