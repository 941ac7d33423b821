import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSession } from '../../src/sessions/session.repository.js';
import {
  DEVICE_BATCH_PATH,
  LIVE_PATH,
  LOG_EXPORT_PATH,
  accountAdd,
  accountDelete,
  accountGetDetail,
  accountList,
  accountUpdate,
  areaTemplateUpdate,
  carEngineStateReserve,
  carGetDetail,
  carGetGpsLog,
  carGetLatestState,
  carGetReserveCmd,
  carList,
  carUpdate,
  getAreaTemplates,
  passwordReset,
  sessionDataId,
  sessionDeviceId,
  userListCount,
  userUpdate,
  type Call,
  type CallRequest,
} from '@fleet/contract';
import type { LightMyRequestResponse } from 'fastify';
import { accounts, callAs, callWith, companyA, companyB, fleet, post, unchecked, type CallOutcome } from '../helper.js';
import { basic } from '../telemetry-support.js';
import { AREA, NEW_PASSWORD, checksum, createWorld, expectErrorShape, type World } from './world.js';

/**
 * What the matrix cannot say in one status: the fields of a valid request.
 * A company user cannot move a record to another company or raise a role,
 * a manager cannot touch role-0 accounts, and a terminal that changed hands
 * belongs to its new company only.
 */
let w: World;
beforeAll(async () => {
  w = await createWorld();
});
afterAll(() => w?.t.close());

type Who = 'superAdmin' | 'adminA' | 'managerA' | 'staffA';
const as = <C extends Call>(who: Who, call: C, body: NoInfer<CallRequest<C>>) =>
  callAs(w.app, w.tokens[who], call, body);

/** Sends and expects a refusal with the error shape and nothing stored. */
async function refusedRaw(label: string, status: number, send: () => Promise<LightMyRequestResponse>) {
  const before = await checksum(w.db);
  const res = await send();
  expect(res.statusCode, res.body).toBe(status);
  expectErrorShape(res, label);
  expect(await checksum(w.db), `${label} changed stored data`).toEqual(before);
}

/** Calls and expects a refusal with the error shape and nothing stored. */
async function refused<C extends Call>(
  who: Exclude<Who, 'superAdmin'>,
  call: C,
  body: NoInfer<CallRequest<C>>,
  status: number,
): Promise<CallOutcome<C>> {
  let res: CallOutcome<C> | undefined;
  await refusedRaw(call.path, status, async () => (res = await as(who, call, body)).raw);
  return res!;
}

describe('a company user cannot move a record to another company', () => {
  it.each(['adminA', 'managerA'] as const)(
    'customers (%s): naming company B is 403, and the customer stays in A',
    async (who) => {
      const user_id = await w.fresh.user('own');
      const res = await refused(
        who,
        userUpdate,
        { info: { user_id, first_name: '移動', name: '顧客', company_id: companyB } },
        403,
      );
      expect(res.error.errors).toHaveProperty('company_id');
      const row = await w.db
        .selectFrom('car_users')
        .select('company_id')
        .where('user_id', '=', user_id)
        .executeTakeFirstOrThrow();
      expect(row.company_id).toBe(companyA);
    },
  );

  it.each(['adminA', 'managerA'] as const)(
    'accounts (%s): registering or moving one into company B is 403',
    async (who) => {
      const info = {
        account_id: `mv-${who}`,
        name: '移動',
        email: `mv-${who}@example.jp`,
        role: 2,
        company_id: companyB,
        password: NEW_PASSWORD,
        password_confirm: NEW_PASSWORD,
      };
      await refused(who, accountAdd, { info }, 403);
      const { account_id, email } = await w.fresh.account('own');
      await refused(
        who,
        accountUpdate,
        { info: { account_id, name: '移動', email, role: 2, company_id: companyB } },
        403,
      );
    },
  );

  it('vehicles: the company comes from the customer, and another company’s customer is not found', async () => {
    const car = await w.fresh.car('own', false);
    const res = await refused(
      'managerA',
      carUpdate,
      { info: { car_id: car.car_id, car_number: '移動', user_id: fleet.B.user_id, car_device_id: null } },
      400,
    );
    expect(res.error.errors).toHaveProperty('user_id');
    const row = await w.db
      .selectFrom('cars')
      .select(['company_id', 'user_id'])
      .where('car_id', '=', car.car_id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ company_id: companyA, user_id: car.user_id });
  });

  it('vehicles: a terminal cannot be taken off or put on by a company user', async () => {
    const car = await w.fresh.car('own');
    const free = await w.fresh.device('other');
    await refused(
      'adminA',
      carUpdate,
      { info: { car_id: car.car_id, car_number: '移動', user_id: car.user_id, car_device_id: free.car_device_id } },
      403,
    );
    await refused(
      'adminA',
      carUpdate,
      { info: { car_id: car.car_id, car_number: '移動', user_id: car.user_id, car_device_id: null } },
      403,
    );
  });

  it('area templates: a company field in the request is ignored, the template is the caller’s company’s', async () => {
    const res = await as('staffA', areaTemplateUpdate, {
      template: unchecked({ type: 'disable', name: '持ち込み', areas: [AREA], company_id: companyB }),
    });
    expect(res.status, res.raw.body).toBe(200);
    const row = await w.db
      .selectFrom('area_templates')
      .select('company_id')
      .where('template_id', '=', res.body.template_id)
      .executeTakeFirstOrThrow();
    expect(row.company_id).toBe(companyA);
  });

  it('a company admin cannot make a super admin: an account without a company is put in their own', async () => {
    const info = {
      account_id: 'no-company-0',
      name: '昇格',
      email: 'no-company-0@example.jp',
      role: 0,
      company_id: null,
      password: NEW_PASSWORD,
      password_confirm: NEW_PASSWORD,
    };
    expect((await as('adminA', accountAdd, { info })).status).toBe(200);
    const row = await w.db
      .selectFrom('accounts')
      .select(['role', 'company_id'])
      .where('account_id', '=', 'no-company-0')
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ role: 0, company_id: companyA });
  });
});

describe('nobody raises their own role or changes their own company', () => {
  const self = (who: 'adminA' | 'managerA', change: Record<string, unknown>) => {
    const a = accounts[who];
    return {
      info: {
        account_id: a.account_id,
        name: a.name,
        email: a.email,
        role: a.role,
        company_id: a.company_id,
        ...change,
      },
    };
  };
  it('a manager asking for role 0 is refused', async () => {
    await refused('managerA', accountUpdate, self('managerA', { role: 0 }), 403);
  });
  it('a company admin moving themselves to company B, or out of any company, is refused', async () => {
    await refused('adminA', accountUpdate, self('adminA', { company_id: companyB }), 403);
    const res = await as('adminA', accountUpdate, self('adminA', { company_id: null }));
    // null keeps the current company: the account is not turned into a super admin.
    expect([200, 403]).toContain(res.status);
    const row = await w.db
      .selectFrom('accounts')
      .select('company_id')
      .where('account_id', '=', 'admin-a')
      .executeTakeFirstOrThrow();
    expect(row.company_id).toBe(companyA);
  });
  it('a common user cannot edit any account, their own included', async () => {
    const a = accounts.staffA;
    await refused(
      'staffA',
      accountUpdate,
      { info: { account_id: a.account_id, name: a.name, email: a.email, role: 0, company_id: companyA } },
      403,
    );
  });
});

describe('a manager (role 1) never creates or touches role-0 accounts', () => {
  const adminA = accounts.adminA;
  it('cannot register one', async () => {
    const info = {
      account_id: 'mgr-made-0',
      name: '昇格',
      email: 'mgr-made-0@example.jp',
      role: 0,
      company_id: companyA,
      password: NEW_PASSWORD,
      password_confirm: NEW_PASSWORD,
    };
    const res = await refused('managerA', accountAdd, { info }, 403);
    expect(res.error.errors).toHaveProperty('role');
  });
  it('cannot promote a common user to role 0', async () => {
    const { account_id, email } = await w.fresh.account('own');
    await refused(
      'managerA',
      accountUpdate,
      { info: { account_id, name: '昇格', email, role: 0, company_id: companyA } },
      403,
    );
  });
  it('cannot see, edit, delete or re-key the company admin', async () => {
    await refused('managerA', accountGetDetail, { account_id: adminA.account_id }, 404);
    await refused('managerA', accountUpdate, { info: { ...adminA, name: '乗っ取り' } }, 404);
    await refused('managerA', accountDelete, { account_id: adminA.account_id, isDelete: true }, 404);
    await refused(
      'managerA',
      passwordReset,
      { info: { account_id: adminA.account_id, password: NEW_PASSWORD, password_confirm: NEW_PASSWORD } },
      404,
    );
    const list = await as('managerA', accountList, {});
    expect(list.body.list.map((a) => a.role)).not.toContain(0);
  });
});

describe('a terminal that moved to another company', () => {
  // Company A's vehicle was deleted and its terminal now sits on company B's live vehicle.
  let imei: string;
  let deviceId: string;
  beforeAll(async () => {
    const device = await w.fresh.device('other');
    ({ car_data_id: imei, car_device_id: deviceId } = device);
    await w.db
      .insertInto('cars')
      .values({ car_id: 'moved-a', company_id: companyA, user_id: fleet.A.user_id, ...device, is_delete: true })
      .execute();
    await w.db
      .insertInto('cars')
      .values({ car_id: 'moved-b', company_id: companyB, user_id: fleet.B.user_id, ...device })
      .execute();
    const batch = { seq: 1, records: [{ type: 'gps', time: '2026-01-15T03:00:00Z', lat: 35.1, lng: 139.1 }] };
    const res = await w.app.inject({
      method: 'POST',
      url: DEVICE_BATCH_PATH,
      payload: batch,
      headers: { authorization: basic(deviceId) },
    });
    expect(res.statusCode, res.body).toBe(200);
  });

  it.each([carGetGpsLog, carGetLatestState, carGetReserveCmd, sessionDataId].map((c) => [c.path.slice(5), c] as const))(
    'is not found by company A (%s)',
    async (_name, call) => {
      await refused('adminA', call, { car_data_id: imei }, 404);
    },
  );
  it('is not exported to company A, nor can they command it', async () => {
    await refusedRaw(LOG_EXPORT_PATH, 404, () =>
      post(w.app, LOG_EXPORT_PATH, { kind: 'gps', car_data_id: imei }, w.tokens.staffA),
    );
    await refused('staffA', carEngineStateReserve, { car_data_id: imei, cmd_info: { cmd: 1 } }, 404);
    await refused('adminA', sessionDeviceId, { car_device_id: deviceId }, 404);
  });
  it('is company B’s', async () => {
    const res = await callAs(w.app, await login('adminB'), carGetGpsLog, { car_data_id: imei });
    expect(res.status).toBe(200);
    expect(res.body.total).toBe(1);
  });
  it('is not in company A’s live snapshot', async () => {
    await w.app.listen({ port: 0, host: '127.0.0.1' });
    const port = (w.app.server.address() as AddressInfo).port;
    const snapshot = await new Promise<string>((resolve, reject) => {
      const req = httpRequest(
        { host: '127.0.0.1', port, path: LIVE_PATH, headers: { authorization: `Bearer ${w.tokens.adminA}` } },
        (res) => {
          let body = '';
          res.on('data', (c: Buffer) => {
            body += String(c);
            const m = /event: snapshot\ndata: (.*)\n\n/.exec(body);
            if (m) {
              req.destroy();
              resolve(m[1]!);
            }
          });
        },
      );
      req.setTimeout(10_000, () => req.destroy(new Error('no snapshot')));
      req.on('error', reject);
      req.end();
    });
    expect(snapshot).not.toContain(imei);
  });
});

describe('an account of role 1-2 without a company', () => {
  it('sees nothing and never makes the server fail', async () => {
    await w.db
      .insertInto('accounts')
      .values({
        account_id: 'orphan-1',
        name: '所属なし',
        email: 'orphan-1@example.jp',
        role: 1,
        company_id: null,
        password_hash: 'x',
      })
      .execute();
    const token = await createSession(w.db, 'orphan-1', { idleMinutes: 60, maxHours: 1 });
    for (const { call, send } of [
      callWith(carList, {}),
      callWith(userListCount, {}),
      callWith(accountList, {}),
      callWith(carGetDetail, { car_id: fleet.A.car_id }),
      callWith(carGetGpsLog, { car_data_id: fleet.A.car_data_id }),
      callWith(getAreaTemplates, { type: 'available' }),
    ]) {
      const url = call.path;
      const res = (await send(w.app, token)).raw;
      expect(res.statusCode, `${url}: ${res.body}`).toBeLessThan(500);
      if (res.statusCode === 200) expect(res.body, url).not.toMatch(/car-a|user-a|admin-a|tpl-a|358409100000001/);
    }
  });
});

describe('a terminal reports for itself only', () => {
  it('stores a batch under its own IMEI whatever IMEI the records name', async () => {
    const records = [
      {
        type: 'gps',
        time: '2026-01-15T03:01:00Z',
        lat: 35.2,
        lng: 139.2,
        car_data_id: fleet.B.car_data_id,
        imei: fleet.B.car_data_id,
      },
    ];
    const res = await w.app.inject({
      method: 'POST',
      url: DEVICE_BATCH_PATH,
      payload: { seq: 42, car_data_id: fleet.B.car_data_id, records },
      headers: { authorization: basic(fleet.A.car_device_id) },
    });
    expect(res.statusCode, res.body).toBe(200);
    const rows = await w.db.selectFrom('gps_logs').select('car_data_id').where('lat', '=', 35.2).execute();
    expect(rows).toEqual([{ car_data_id: fleet.A.car_data_id }]);
  });
  it('cannot sign in as another terminal without its secret', async () => {
    const res = await w.app.inject({
      method: 'POST',
      url: DEVICE_BATCH_PATH,
      payload: { seq: 1, records: [] },
      headers: { authorization: basic(fleet.B.car_device_id, 'wrong-secret') },
    });
    expect(res.statusCode).toBe(401);
    expect(res.headers['www-authenticate']).toMatch(/^Basic /);
    expectErrorShape(res);
  });
});

const login = async (who: 'adminB') => createSession(w.db, accounts[who].account_id, { idleMinutes: 60, maxHours: 1 });
