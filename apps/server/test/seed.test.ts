import { login as loginCall, terminalIdRules, terminalProtocols } from '@fleet/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, demoAccounts, demoFleet } from '../src/seed/demo-data.js';
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
  it('fills an empty database with the demo accounts and twenty cars', async () => {
    expect(await isEmpty(t.db)).toBe(true);
    await seedDemo(t.db);
    expect(await isEmpty(t.db)).toBe(false);

    // toBe(20), not '20': the pg type parsers make counts numbers on PostgreSQL too.
    expect(await count('cars')).toBe(20);
    expect(await count('devices')).toBe(20);
    expect(await count('car_users')).toBe(20);
    expect(await count('companies')).toBe(2);
    const ids = (await t.db.selectFrom('accounts').select('account_id').execute()).map((a) => a.account_id);
    expect(ids.sort()).toEqual(demoAccounts.map((a) => a.account_id).sort());
  });

  it('has a terminal of every protocol, each with an id of the form its protocol uses', () => {
    const devices = demoFleet().map((f) => f.device);
    expect(new Set(devices.map((d) => d.protocol))).toEqual(new Set(terminalProtocols));
    for (const d of devices) expect(d.car_data_id, d.car_device_id).toMatch(terminalIdRules[d.protocol].pattern);
    expect(new Set(devices.map((d) => d.car_data_id)).size).toBe(devices.length);
  });

  it('lets every demo account sign in with the demo password', async () => {
    for (const a of demoAccounts) {
      const res = await callAs(t.app, undefined, loginCall, { username: a.account_id, password: DEMO_PASSWORD });
      expect(res.status, a.account_id).toBe(200);
      expect(res.body).toMatchObject({ id: a.account_id, role: a.role, company_id: a.company_id });
    }
  });
});
