import { login as loginCall } from '@fleet/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, demoAccounts } from '../src/seed/demo-data.js';
import { isEmpty, seedDemo } from '../src/seed/seed.js';
import { callAs, createTestApp, type TestApp } from './helper.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

const count = async (table: 'accounts' | 'cars' | 'devices' | 'car_users' | 'companies') =>
  (
    await t.db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow()
  ).n;

describe('demo seed', () => {
  it('fills an empty database with the demo accounts and sixteen cars', async () => {
    expect(await isEmpty(t.db)).toBe(true);
    await seedDemo(t.db);
    expect(await isEmpty(t.db)).toBe(false);

    // toBe(16), not '16': the pg type parsers make counts numbers on PostgreSQL too.
    expect(await count('cars')).toBe(16);
    expect(await count('devices')).toBe(16);
    expect(await count('car_users')).toBe(16);
    expect(await count('companies')).toBe(2);
    const ids = (await t.db.selectFrom('accounts').select('account_id').execute()).map((a) => a.account_id);
    expect(ids.sort()).toEqual(demoAccounts.map((a) => a.account_id).sort());
  });

  it('lets every demo account sign in with the demo password', async () => {
    for (const a of demoAccounts) {
      const res = await callAs(t.app, undefined, loginCall, { username: a.account_id, password: DEMO_PASSWORD });
      expect(res.status, a.account_id).toBe(200);
      expect(res.body).toMatchObject({ id: a.account_id, role: a.role, company_id: a.company_id });
    }
  });
});
