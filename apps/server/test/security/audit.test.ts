import { auditActionLabels, type AuditLogRow } from '@fleet/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accounts, companyA, fleet, post } from '../helper.js';
import { AREA, NEW_PASSWORD, createWorld, type SignedInRole, type World } from './world.js';

/**
 * The audit log: every change to accounts, companies, vehicles, areas and
 * engine commands leaves who, what, which and when; a refused call leaves
 * nothing; only the super admin reads it, and it never holds a secret.
 */
let w: World;
beforeAll(async () => {
  w = await createWorld();
});
afterAll(() => w?.t.close());

const call = async (who: SignedInRole, url: string, body: unknown) => {
  const res = await post(w.app, url, body, w.tokens[who]);
  expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
  return res.json();
};
const latest = async (target_type?: string, target_id?: string): Promise<AuditLogRow | undefined> => {
  const res = await post(w.app, '/api/audit_log_list', { target_type, target_id, limit: 1 }, w.tokens.superAdmin);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().list[0];
};

describe('the audit log records', () => {
  it.each<[string, Exclude<SignedInRole, 'operatorA'>, () => Promise<[string, unknown]>, string, string, () => string]>(
    [
      [
        'registering an account',
        'adminA',
        async () => [
          '/api/account_add',
          {
            info: {
              account_id: 'audit-acc',
              name: '監査',
              email: 'audit-acc@example.jp',
              role: 2,
              company_id: companyA,
              password: NEW_PASSWORD,
              password_confirm: NEW_PASSWORD,
            },
          },
        ],
        'account.add',
        'account',
        () => 'audit-acc',
      ],
      [
        'changing a role',
        'managerA',
        async () => [
          '/api/account_update',
          {
            info: {
              account_id: 'audit-acc',
              name: '監査',
              email: 'audit-acc@example.jp',
              role: 1,
              company_id: companyA,
            },
          },
        ],
        'account.update',
        'account',
        () => 'audit-acc',
      ],
      [
        'setting a password',
        'managerA',
        async () => [
          '/api/password_reset',
          { info: { account_id: 'audit-acc', password: NEW_PASSWORD, password_confirm: NEW_PASSWORD } },
        ],
        'account.password',
        'account',
        () => 'audit-acc',
      ],
      [
        'deleting an account',
        'adminA',
        async () => ['/api/account_delete', { account_id: 'audit-acc', isDelete: true }],
        'account.delete',
        'account',
        () => 'audit-acc',
      ],
      [
        'registering a company',
        'superAdmin',
        async () => ['/api/company_add', { info: { company_id: 'audit-co', company_name: '監査商事' } }],
        'company.add',
        'company',
        () => 'audit-co',
      ],
      [
        'editing a company',
        'superAdmin',
        async () => ['/api/company_update', { info: { company_id: 'audit-co', company_name: '監査商事2' } }],
        'company.update',
        'company',
        () => 'audit-co',
      ],
      [
        'deleting a company',
        'superAdmin',
        async () => ['/api/company_delete', { company_id: 'audit-co', isDelete: true }],
        'company.delete',
        'company',
        () => 'audit-co',
      ],
      [
        'registering a vehicle',
        'superAdmin',
        async () => [
          '/api/car_add',
          { info: { car_id: 'audit-car', car_number: '監査 1', user_id: fleet.A.user_id, car_device_id: null } },
        ],
        'car.add',
        'car',
        () => 'audit-car',
      ],
      [
        'editing a vehicle',
        'managerA',
        async () => [
          '/api/car_update',
          { info: { car_id: 'audit-car', car_number: '監査 2', user_id: fleet.A.user_id, car_device_id: null } },
        ],
        'car.update',
        'car',
        () => 'audit-car',
      ],
      [
        'changing a vehicle status',
        'adminA',
        async () => ['/api/car_status_update', { car_id: 'audit-car', car_status: 2 }],
        'car.status',
        'car',
        () => 'audit-car',
      ],
      [
        'setting the available range',
        'staffA',
        async () => [
          '/api/car_available_update',
          { car_id: fleet.A.car_id, available_data: { lat_min: 35, lat_max: 36, lng_min: 139, lng_max: 140 } },
        ],
        'area.available_data',
        'area',
        () => fleet.A.car_id,
      ],
      [
        'replacing forbidden areas',
        'staffA',
        async () => ['/api/car_disable_areas_update', { car_id: fleet.A.car_id, disable_areas: [AREA] }],
        'area.disable',
        'area',
        () => fleet.A.car_id,
      ],
      [
        'applying a template',
        'staffA',
        async () => ['/api/car_apply_area_template', { car_id: fleet.A.car_id, template_id: 'tpl-a' }],
        'area.template_apply',
        'area',
        () => fleet.A.car_id,
      ],
      [
        'deleting a template',
        'adminA',
        async () => ['/api/area_template_delete', { template_id: 'tpl-a' }],
        'area_template.delete',
        'area_template',
        () => 'tpl-a',
      ],
      [
        'deleting a vehicle',
        'managerA',
        async () => ['/api/car_delete', { car_id: 'audit-car', isDelete: true }],
        'car.delete',
        'car',
        () => 'audit-car',
      ],
    ],
  )('%s', async (_label, who, request, action, targetType, targetId) => {
    const [url, body] = await request();
    await call(who, url, body);
    const row = await latest(targetType, targetId());
    expect(row).toMatchObject({
      action,
      target_type: targetType,
      target_id: targetId(),
      account_id: accounts[who].account_id,
      account_name: accounts[who].name,
    });
    expect(auditActionLabels[row!.action]).toBeDefined();
    expect(Date.now() - Date.parse(row!.at)).toBeLessThan(60_000);
  });

  it('engine commands and reservation requests, with what was asked', async () => {
    const car = await w.fresh.car('own');
    // A common user with the engine-control right, whose session has stepped up (world.ts).
    const { command } = await call('operatorA', '/api/car_engine_state_reserve', {
      car_data_id: car.car_data_id,
      cmd_info: { cmd: 1 },
    });
    expect(await latest('engine_command', String(command.command_id))).toMatchObject({
      action: 'engine_command.reserve',
      account_id: 'operator-a',
      detail: { car_data_id: car.car_data_id, cmd_info: { cmd: 1 } },
    });
    await call('managerA', '/api/car_delete_reserve_engine_cmd', { car_data_id: car.car_data_id });
    expect(await latest('engine_command', String(command.command_id))).toMatchObject({
      action: 'engine_command.delete',
      account_id: 'manager-a',
    });
    const { request_id } = await call('operatorA', '/api/car_engine_state_reserve_request', {
      request: { car_id: car.car_id, cmd: 0, execute_at: new Date(Date.now() + 3600_000).toISOString() },
    });
    expect(await latest('reservation_request', request_id)).toMatchObject({
      action: 'reservation_request.add',
      detail: { car_id: car.car_id, cmd: 0 },
    });
    await call('adminA', '/api/car_delete_reserve_engine_cmd_request', { request_id });
    expect(await latest('reservation_request', request_id)).toMatchObject({
      action: 'reservation_request.cancel',
      account_id: 'admin-a',
    });
  });
});

describe('the audit log', () => {
  it('records nothing for a refused change', async () => {
    const before = (await post(w.app, '/api/audit_log_list', {}, w.tokens.superAdmin)).json().count;
    expect(
      (
        await post(
          w.app,
          '/api/car_update',
          { info: { car_id: fleet.B.car_id, car_number: 'x', user_id: fleet.B.user_id } },
          w.tokens.managerA,
        )
      ).statusCode,
    ).toBe(404);
    expect(
      (await post(w.app, '/api/company_add', { info: { company_id: 'no-co', company_name: 'x' } }, w.tokens.adminA))
        .statusCode,
    ).toBe(403);
    expect((await post(w.app, '/api/audit_log_list', {}, w.tokens.superAdmin)).json().count).toBe(before);
  });

  it('never holds a password, a hash or a token', async () => {
    const text = JSON.stringify(await w.db.selectFrom('audit_log').selectAll().execute());
    expect(text).not.toMatch(/scrypt\$|new-pass|password"\s*:\s*"/);
    for (const token of Object.values(w.tokens)) expect(text).not.toContain(token);
  });

  it('is read by the super admin alone, newest first, filtered and paged', async () => {
    for (const who of ['adminA', 'managerA', 'staffA'] as const)
      expect((await post(w.app, '/api/audit_log_list', {}, w.tokens[who])).statusCode).toBe(403);
    const all = (await post(w.app, '/api/audit_log_list', { limit: 100 }, w.tokens.superAdmin)).json();
    expect(all.count).toBeGreaterThanOrEqual(19);
    const ids = all.list.map((r: AuditLogRow) => r.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    const cars = (
      await post(w.app, '/api/audit_log_list', { target_type: 'car', limit: 2, offset: 1 }, w.tokens.superAdmin)
    ).json();
    expect(cars.count).toBe(4);
    expect(cars.list).toHaveLength(2);
    expect(cars.list.every((r: AuditLogRow) => r.target_type === 'car')).toBe(true);
    const bySomeone = (await post(w.app, '/api/audit_log_list', { account_id: 'staff-a' }, w.tokens.superAdmin)).json();
    expect(bySomeone.list.every((r: AuditLogRow) => r.account_id === 'staff-a')).toBe(true);
  });
});
