import { login as loginCall, terminalIdRules, terminalProtocols } from '@fleet/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, demoAccounts, demoFleet, demoGroups } from '../src/seed/demo-data.js';
import { kanagawaPlaces, tokyoPlaces } from '../src/simulator/places.js';
import { circle, polygon, signedDistance } from '../src/zones/geometry.js';
import { zoneAssignments } from '../src/zones/zones.repository.js';
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

  it('puts every demo vehicle in one group whose zones it is judged against', async () => {
    const groups = await t.db.selectFrom('vehicle_groups').select(['group_id', 'company_id', 'name']).execute();
    expect(groups.map((g) => g.name).sort()).toEqual(demoGroups.map((g) => g.name).sort());
    const members = await t.db.selectFrom('car_groups').select(['car_id', 'group_id']).execute();
    expect(members.map((m) => m.car_id).sort()).toEqual(
      demoFleet()
        .map((f) => f.car.car_id)
        .sort(),
    );
    for (const g of groups) {
      const cars = members.filter((m) => m.group_id === g.group_id).map((m) => m.car_id);
      const zones = await t.db.selectFrom('zones').select('zone_id').where('company_id', '=', g.company_id).execute();
      const assigned = (await zoneAssignments(t.db, g.company_id)).filter((a) => cars.includes(a.car_id));
      const own = demoGroups.find((d) => d.name === g.name)!;
      expect(assigned.length, g.name).toBe(cars.length * own.zones.length);
      expect(zones.length).toBeGreaterThanOrEqual(own.zones.length);
      // Every vehicle of the group is in its company (a group never mixes companies).
      const companies = await t.db.selectFrom('cars').select('company_id').where('car_id', 'in', cars).execute();
      expect(new Set(companies.map((c) => c.company_id))).toEqual(new Set([g.company_id]));
    }
    const tokens = await t.db.selectFrom('zone_versions').select('company_id').execute();
    expect(tokens.map((r) => r.company_id).sort()).toEqual(['kanagawa-auto', 'tokyo-mobility']);
  });

  it('lays each demo zone over a place the simulator drives to, so the demo crosses it', () => {
    const places = [...tokyoPlaces, ...kanagawaPlaces];
    for (const z of demoGroups.flatMap((g) => g.zones)) {
      const shape =
        z.shape === 'circle'
          ? circle({ lat: z.lat as number, lng: z.lng as number }, z.radius_m as number)
          : polygon(z.points as { lat: number; lng: number }[]);
      const inside = places.filter((p) => signedDistance(shape, p, []) < 0);
      expect(inside.length, z.name).toBeGreaterThan(0);
    }
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
