import {
  accountAdd,
  accountDelete,
  accountUpdate,
  areaTemplateDelete,
  auditActionLabels,
  auditLogList,
  carAdd,
  carApplyAreaTemplate,
  carAvailableUpdate,
  carDelete,
  carDeleteReserveEngineCmd,
  carDeleteReserveEngineCmdRequest,
  carDisableAreasUpdate,
  carEngineStateReserve,
  carEngineStateReserveRequest,
  carStatusUpdate,
  carUpdate,
  companyAdd,
  companyDelete,
  companyUpdate,
  passwordReset,
  type AuditLogRow,
  type AuditTargetType,
  type Call,
  type CallRequest,
} from '@fleet/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accounts, callAs, callWith, companyA, fleet, type CallWith } from '../helper.js';
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

const call = async <C extends Call>(who: SignedInRole, c: C, body: NoInfer<CallRequest<C>>) => {
  const res = await callAs(w.app, w.tokens[who], c, body);
  expect(res.status, `${c.path}: ${res.raw.body}`).toBe(200);
  return res.body;
};
const auditLog = (body: CallRequest<typeof auditLogList>, who: SignedInRole = 'superAdmin') =>
  callAs(w.app, w.tokens[who], auditLogList, body);
const latest = async (target_type?: AuditTargetType, target_id?: string): Promise<AuditLogRow | undefined> => {
  const res = await auditLog({ target_type, target_id, limit: 1 });
  expect(res.status, res.raw.body).toBe(200);
  return res.body.list[0];
};

describe('the audit log records', () => {
  it.each<[string, Exclude<SignedInRole, 'operatorA'>, () => CallWith, string, AuditTargetType, () => string]>([
    [
      'registering an account',
      'adminA',
      () =>
        callWith(accountAdd, {
          info: {
            account_id: 'audit-acc',
            name: '監査',
            email: 'audit-acc@example.jp',
            role: 2,
            company_id: companyA,
            password: NEW_PASSWORD,
            password_confirm: NEW_PASSWORD,
          },
        }),
      'account.add',
      'account',
      () => 'audit-acc',
    ],
    [
      'changing a role',
      'managerA',
      () =>
        callWith(accountUpdate, {
          info: {
            account_id: 'audit-acc',
            name: '監査',
            email: 'audit-acc@example.jp',
            role: 1,
            company_id: companyA,
          },
        }),
      'account.update',
      'account',
      () => 'audit-acc',
    ],
    [
      'setting a password',
      'managerA',
      () =>
        callWith(passwordReset, {
          info: { account_id: 'audit-acc', password: NEW_PASSWORD, password_confirm: NEW_PASSWORD },
        }),
      'account.password',
      'account',
      () => 'audit-acc',
    ],
    [
      'deleting an account',
      'adminA',
      () => callWith(accountDelete, { account_id: 'audit-acc', isDelete: true }),
      'account.delete',
      'account',
      () => 'audit-acc',
    ],
    [
      'registering a company',
      'superAdmin',
      () => callWith(companyAdd, { info: { company_id: 'audit-co', company_name: '監査商事' } }),
      'company.add',
      'company',
      () => 'audit-co',
    ],
    [
      'editing a company',
      'superAdmin',
      () => callWith(companyUpdate, { info: { company_id: 'audit-co', company_name: '監査商事2' } }),
      'company.update',
      'company',
      () => 'audit-co',
    ],
    [
      'deleting a company',
      'superAdmin',
      () => callWith(companyDelete, { company_id: 'audit-co', isDelete: true }),
      'company.delete',
      'company',
      () => 'audit-co',
    ],
    [
      'registering a vehicle',
      'superAdmin',
      () =>
        callWith(carAdd, {
          info: { car_id: 'audit-car', car_number: '監査 1', user_id: fleet.A.user_id, car_device_id: null },
        }),
      'car.add',
      'car',
      () => 'audit-car',
    ],
    [
      'editing a vehicle',
      'managerA',
      () =>
        callWith(carUpdate, {
          info: { car_id: 'audit-car', car_number: '監査 2', user_id: fleet.A.user_id, car_device_id: null },
        }),
      'car.update',
      'car',
      () => 'audit-car',
    ],
    [
      'changing a vehicle status',
      'adminA',
      () => callWith(carStatusUpdate, { car_id: 'audit-car', car_status: 2 }),
      'car.status',
      'car',
      () => 'audit-car',
    ],
    [
      'setting the available range',
      'staffA',
      () =>
        callWith(carAvailableUpdate, {
          car_id: fleet.A.car_id,
          available_data: { lat_min: 35, lat_max: 36, lng_min: 139, lng_max: 140 },
        }),
      'area.available_data',
      'area',
      () => fleet.A.car_id,
    ],
    [
      'replacing forbidden areas',
      'staffA',
      () => callWith(carDisableAreasUpdate, { car_id: fleet.A.car_id, disable_areas: [AREA] }),
      'area.disable',
      'area',
      () => fleet.A.car_id,
    ],
    [
      'applying a template',
      'staffA',
      () => callWith(carApplyAreaTemplate, { car_id: fleet.A.car_id, template_id: 'tpl-a' }),
      'area.template_apply',
      'area',
      () => fleet.A.car_id,
    ],
    [
      'deleting a template',
      'adminA',
      () => callWith(areaTemplateDelete, { template_id: 'tpl-a' }),
      'area_template.delete',
      'area_template',
      () => 'tpl-a',
    ],
    [
      'deleting a vehicle',
      'managerA',
      () => callWith(carDelete, { car_id: 'audit-car', isDelete: true }),
      'car.delete',
      'car',
      () => 'audit-car',
    ],
  ])('%s', async (_label, who, request, action, targetType, targetId) => {
    const { call: c, send } = request();
    const res = await send(w.app, w.tokens[who]);
    expect(res.status, `${c.path}: ${res.raw.body}`).toBe(200);
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
    const imei = car.car_data_id!;
    // A common user with the engine-control right, whose session has stepped up (world.ts).
    const { command } = await call('operatorA', carEngineStateReserve, {
      car_data_id: imei,
      cmd_info: { cmd: 1 },
    });
    expect(await latest('engine_command', String(command.command_id))).toMatchObject({
      action: 'engine_command.reserve',
      account_id: 'operator-a',
      detail: { car_data_id: imei, cmd_info: { cmd: 1 } },
    });
    await call('managerA', carDeleteReserveEngineCmd, { car_data_id: imei });
    expect(await latest('engine_command', String(command.command_id))).toMatchObject({
      action: 'engine_command.delete',
      account_id: 'manager-a',
    });
    const { request_id } = await call('operatorA', carEngineStateReserveRequest, {
      request: { car_id: car.car_id, cmd: 0, execute_at: new Date(Date.now() + 3600_000).toISOString() },
    });
    expect(await latest('reservation_request', request_id)).toMatchObject({
      action: 'reservation_request.add',
      detail: { car_id: car.car_id, cmd: 0 },
    });
    await call('adminA', carDeleteReserveEngineCmdRequest, { request_id });
    expect(await latest('reservation_request', request_id)).toMatchObject({
      action: 'reservation_request.cancel',
      account_id: 'admin-a',
    });
  });
});

describe('the audit log', () => {
  it('records nothing for a refused change', async () => {
    const before = (await auditLog({})).body.count;
    const update = { info: { car_id: fleet.B.car_id, car_number: 'x', user_id: fleet.B.user_id } };
    expect((await callAs(w.app, w.tokens.managerA, carUpdate, update)).status).toBe(404);
    const add = { info: { company_id: 'no-co', company_name: 'x' } };
    expect((await callAs(w.app, w.tokens.adminA, companyAdd, add)).status).toBe(403);
    expect((await auditLog({})).body.count).toBe(before);
  });

  it('never holds a password, a hash or a token', async () => {
    const text = JSON.stringify(await w.db.selectFrom('audit_log').selectAll().execute());
    expect(text).not.toMatch(/scrypt\$|new-pass|password"\s*:\s*"/);
    for (const token of Object.values(w.tokens)) expect(text).not.toContain(token);
  });

  it('is read by the super admin alone, newest first, filtered and paged', async () => {
    for (const who of ['adminA', 'managerA', 'staffA'] as const) expect((await auditLog({}, who)).status).toBe(403);
    const all = (await auditLog({ limit: 100 })).body;
    expect(all.count).toBeGreaterThanOrEqual(19);
    const ids = all.list.map((r) => r.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    const cars = (await auditLog({ target_type: 'car', limit: 2, offset: 1 })).body;
    expect(cars.count).toBe(4);
    expect(cars.list).toHaveLength(2);
    expect(cars.list.every((r) => r.target_type === 'car')).toBe(true);
    const bySomeone = (await auditLog({ account_id: 'staff-a' })).body;
    expect(bySomeone.list.every((r) => r.account_id === 'staff-a')).toBe(true);
  });
});
