import {
  accountDelete,
  auditLogList,
  accountGetDetail,
  accountUpdate,
  cancelReasons,
  type CancelReason,
  carGetAreaStatus,
  carGetDetail,
  carGetReserveCmdHistory,
  carList,
  carReserveCmd,
  engineMessages,
  getReserveRequests,
  me,
  stepUp as stepUpCall,
} from '@fleet/contract';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createCachedSessionApp,
  getSlot,
  grantEngineControl,
  moveTerminalAToB,
  poll,
  report,
  requestEngine,
  requestEngineOk,
  reserveEngineCall,
  reserveEngineOk,
  stepUp,
  testScheduler,
} from './engine-support.js';
import { accounts, companyB, fleet, login, type SignedInApp } from './helper.js';
import { sendBatch, terminalA } from './telemetry-support.js';

/**
 * Issue 12: tenancy and authority at every step. Each scenario was reproduced against the product
 * before the fix: a terminal that changes hands, an account that is deleted or loses its right.
 */
let t: SignedInApp;

beforeEach(async () => {
  t = await createCachedSessionApp();
});
afterEach(() => t.close());

const call: SignedInApp['call'] = (...args) => t.call(...args);
const moveTerminalToB = () => moveTerminalAToB(t.db);
const inAnHour = () => new Date(Date.now() + 3_600_000);

/** The terminal reports a position now. */
const reportPosition = (seq: number, lat: number, lng: number) =>
  sendBatch(t.app, terminalA, { seq, records: [{ type: 'gps', time: new Date().toISOString(), lat, lng, speed: 42 }] });

/** A reason as the database keeps it: a server cancellation's code (the contract's cancelReasons has the text). */
const stored = (code: CancelReason) => code;

const commandRow = (id: number) =>
  t.db
    .selectFrom('reserved_commands')
    .select(['state', 'closed_reason', 'cancel_reason'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();

/** With the cars/accounts triggers off, only the checks at hand-out and firing stand in the way. */
const withoutTriggers = async (run: () => Promise<void>) => {
  await sql`ALTER TABLE cars DISABLE TRIGGER cars_cancel_pending`.execute(t.db);
  await sql`ALTER TABLE accounts DISABLE TRIGGER accounts_cancel_pending`.execute(t.db);
  try {
    await run();
  } finally {
    await sql`ALTER TABLE cars ENABLE TRIGGER cars_cancel_pending`.execute(t.db);
    await sql`ALTER TABLE accounts ENABLE TRIGGER accounts_cancel_pending`.execute(t.db);
  }
};

const scheduler = () => testScheduler(t.db);

describe('1. the live position of a terminal that moved to another company', () => {
  it('is no longer readable by the old company through its deleted vehicle, the list or the area status', async () => {
    await reportPosition(1, 35.6, 139.7);
    const before = (await call(carGetDetail, { car_id: fleet.A.car_id }, 'staffA')).body;
    expect(before.latest?.lat).toBe(35.6);

    await moveTerminalToB();
    await reportPosition(2, 35.9, 139.9);

    const detail = (await call(carGetDetail, { car_id: fleet.A.car_id }, 'staffA')).body;
    expect(detail.latest).toBeNull();
    const list = (await call(carList, { isDelete: true }, 'staffA')).body;
    expect(list.list.find((c) => c.car_id === fleet.A.car_id)).toMatchObject({ latest: null });
    const area = (await call(carGetAreaStatus, { car_id: fleet.A.car_id }, 'staffA')).body;
    expect(area.position).toBeNull();

    // The new company reads it.
    const theirs = (await call(carGetDetail, { car_id: fleet.B.car_id }, 'adminB')).body;
    expect(theirs.latest?.lat).toBe(35.9);
  });
});

describe('2. a prohibit queued for a terminal that then moves to another company', () => {
  it('is cancelled with the reason when the vehicle is deleted, and never reaches the terminal', async () => {
    await stepUp(t.app, t.tokens.managerA);
    const c = await reserveEngineOk(t.app, t.tokens.managerA, terminalA.imei, 1);
    await moveTerminalToB();
    expect(await poll(t.app, terminalA)).toEqual([]);
    expect(await commandRow(c.command_id)).toMatchObject({
      state: 1,
      closed_reason: 'cancelled',
      cancel_reason: stored('carDeleted'),
    });
    // Stored as a code, read as the contract's text: the timeline and the audit log.
    const history = (await call(carGetReserveCmdHistory, { car_data_id: terminalA.imei }, 'superAdmin')).body;
    const command = history.list.find((h) => h.command_id === c.command_id)!;
    expect(command).toMatchObject({ status: 'cancelled', cancel_reason: cancelReasons.carDeleted });
    expect(command.events.at(-1)).toMatchObject({ event: 'cancelled', reason: cancelReasons.carDeleted });
    const audit = (await call(auditLogList, { target_type: 'engine_command', limit: 20 }, 'superAdmin')).body;
    expect(audit.list.find((r) => r.target_id === String(c.command_id))?.detail).toMatchObject({
      reason: cancelReasons.carDeleted,
    });
  });

  it('is refused at the hand-out even if nothing cancelled it when the terminal moved', async () => {
    await stepUp(t.app, t.tokens.managerA);
    const c = await reserveEngineOk(t.app, t.tokens.managerA, terminalA.imei, 1);
    await withoutTriggers(async () => {
      await moveTerminalToB();
      expect(await poll(t.app, terminalA)).toEqual([]);
    });
    expect(await commandRow(c.command_id)).toMatchObject({
      closed_reason: 'cancelled',
      cancel_reason: stored('carDeleted'),
    });
    const audit = await t.db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'engine_command.cancel')
      .execute();
    expect(audit.map((a) => a.target_id)).toEqual([String(c.command_id)]);
  });

  it('is refused at the hand-out when its creator was deleted or lost the right', async () => {
    await stepUp(t.app, t.tokens.managerA);
    await reserveEngineOk(t.app, t.tokens.managerA, terminalA.imei, 1);
    await withoutTriggers(async () => {
      await t.db
        .updateTable('accounts')
        .set({ engine_control: false })
        .where('account_id', '=', accounts.managerA.account_id)
        .execute();
      expect(await poll(t.app, terminalA)).toEqual([]);
    });
    const slot = await getSlot(t.app, t.tokens.adminA, terminalA.imei);
    expect(slot).toMatchObject({ state: 0, command: { status: 'cancelled', cancel_reason: cancelReasons.noRight } });
    expect(slot.command!.events.at(-1)).toMatchObject({ event: 'cancelled', reason: cancelReasons.noRight });
  });
});

describe('3. a scheduled request for a vehicle that moves to another company', () => {
  it('is cancelled, never fires, and is not shown to the new company', async () => {
    await stepUp(t.app, t.tokens.managerA);
    const { clock, s } = scheduler();
    const executeAt = new Date(clock.now.getTime() + 60_000);
    await requestEngineOk(t.app, t.tokens.managerA, fleet.A.car_id, 1, executeAt);
    await t.db.updateTable('cars').set({ company_id: companyB }).where('car_id', '=', fleet.A.car_id).execute();
    clock.now = new Date(executeAt.getTime() + 60_000);
    expect(await s.tick()).toMatchObject({ fired: 0 });
    const theirs = (await call(getReserveRequests, { car_id: fleet.A.car_id }, 'adminB')).body;
    expect([...theirs.pending, ...theirs.recent]).toEqual([]);
    const row = await t.db.selectFrom('reservation_requests').select(['status', 'reason']).executeTakeFirstOrThrow();
    expect(row).toEqual({ status: 'cancelled', reason: stored('companyChanged') });
  });

  it('is cancelled by the scheduler when nothing cancelled it before', async () => {
    await stepUp(t.app, t.tokens.managerA);
    const { clock, s } = scheduler();
    const executeAt = new Date(clock.now.getTime() + 60_000);
    await requestEngineOk(t.app, t.tokens.managerA, fleet.A.car_id, 1, executeAt);
    await withoutTriggers(async () => {
      await t.db.updateTable('cars').set({ company_id: companyB }).where('car_id', '=', fleet.A.car_id).execute();
      clock.now = new Date(executeAt.getTime() + 60_000);
      expect(await s.tick()).toMatchObject({ fired: 0, cancelled: 1 });
    });
    expect(await t.db.selectFrom('reserved_commands').select('id').execute()).toEqual([]);
    const row = await t.db.selectFrom('reservation_requests').select(['status', 'reason']).executeTakeFirstOrThrow();
    expect(row).toEqual({ status: 'cancelled', reason: stored('noRight') });
  });
});

describe('4. a scheduled request of an account that is deleted', () => {
  it('is cancelled when the account is deleted, and the scheduler would not fire it anyway', async () => {
    await grantEngineControl(t.db, accounts.staffA.account_id);
    const staff = await login(t.app, 'staffA');
    await stepUp(t.app, staff);
    const { clock, s } = scheduler();
    const executeAt = new Date(clock.now.getTime() + 60_000);
    for (const car_id of [fleet.A.car_id]) await requestEngineOk(t.app, staff, car_id, 1, executeAt);
    await withoutTriggers(async () => {
      await t.db
        .updateTable('accounts')
        .set({ is_delete: true })
        .where('account_id', '=', accounts.staffA.account_id)
        .execute();
      clock.now = new Date(executeAt.getTime() + 60_000);
      expect(await s.tick()).toMatchObject({ fired: 0, cancelled: 1 });
    });
    const row = await t.db.selectFrom('reservation_requests').select(['status', 'reason']).executeTakeFirstOrThrow();
    expect(row).toEqual({ status: 'cancelled', reason: stored('creatorDeleted') });
  });

  it('deleting the account through the console cancels its pending requests and commands at once', async () => {
    await grantEngineControl(t.db, accounts.staffA.account_id);
    const staff = await login(t.app, 'staffA');
    await stepUp(t.app, staff);
    await requestEngineOk(t.app, staff, fleet.A.car_id, 1, inAnHour());
    const c = await reserveEngineOk(t.app, staff, terminalA.imei, 1);
    const deleted = await call(accountDelete, { account_id: accounts.staffA.account_id, isDelete: true }, 'adminA');
    expect(deleted.status, deleted.raw.body).toBe(200);
    const requests = (await call(getReserveRequests, { car_id: fleet.A.car_id }, 'adminA')).body;
    expect(requests.pending).toEqual([]);
    expect(requests.recent).toMatchObject([{ status: 'cancelled', reason: cancelReasons.creatorDeleted }]);
    expect(await commandRow(c.command_id)).toMatchObject({
      closed_reason: 'cancelled',
      cancel_reason: stored('creatorDeleted'),
    });
    expect(await poll(t.app, terminalA)).toEqual([]);
  });
});

describe('5. the command history of the previous company', () => {
  it('is not shown to the company the terminal moved to', async () => {
    const c = await reserveEngineOk(t.app, t.tokens.managerA, terminalA.imei, 0);
    expect(await poll(t.app, terminalA)).toEqual([c.command_id]);
    await report(t.app, terminalA, c.command_id, true);
    await moveTerminalToB();
    const history = (await call(carGetReserveCmdHistory, { car_data_id: terminalA.imei }, 'adminB')).body;
    expect(history.list).toEqual([]);
    expect(await getSlot(t.app, t.tokens.adminB, terminalA.imei)).toMatchObject({ state: 0, command: null });
    // The super admin still sees every company's history.
    const all = (await call(carGetReserveCmdHistory, { car_data_id: terminalA.imei }, 'superAdmin')).body;
    expect(all.list.map((x) => x.command_id)).toEqual([c.command_id]);
  });
});

describe('6. software and settings updates', () => {
  it('are the super admin’s alone', async () => {
    const body = {
      car_data_id: terminalA.imei,
      cmd_type: 'req_car_setting_update',
      cmd_info: { settings: { server: 'http://evil.example' } },
    } as const;
    await grantEngineControl(t.db, accounts.staffA.account_id);
    for (const who of ['staffA', 'managerA', 'adminA'] as const) {
      const res = await call(carReserveCmd, body, who);
      expect(res.status, who).toBe(403);
      expect(res.error).toMatchObject({ code: 'FORBIDDEN', message: engineMessages.superAdminOnly });
    }
    expect(await t.db.selectFrom('reserved_commands').select('id').execute()).toEqual([]);
    expect((await call(carReserveCmd, body, 'superAdmin')).status).toBe(200);
  });
});

describe('the engine-control right', () => {
  it('is off for a common account: engine calls answer 403 with the reason, reads still work', async () => {
    const res = await reserveEngineCall(t.app, t.tokens.staffA, terminalA.imei, 0);
    expect(res.status).toBe(403);
    expect(res.error).toMatchObject({ code: 'FORBIDDEN', message: engineMessages.noEngineRight });
    const request = await requestEngine(t.app, t.tokens.staffA, fleet.A.car_id, 0, inAnHour());
    expect(request.status).toBe(403);
    expect((await getSlot(t.app, t.tokens.staffA, terminalA.imei)).state).toBe(0);
    expect((await call(me, {}, 'staffA')).body).toMatchObject({ engine_control: false });
  });

  it('is given by the company admin on the account screen (audited), never by the account itself', async () => {
    const detail = (await call(accountGetDetail, { account_id: accounts.staffA.account_id }, 'adminA')).body;
    expect(detail.engine_control).toBe(false);
    const info = { ...accounts.staffA, engine_control: true, password: '', password_confirm: '' };
    const self = await call(accountUpdate, { info }, 'staffA');
    expect(self.status).not.toBe(200);
    expect((await call(accountUpdate, { info }, 'adminA')).status).toBe(200);
    expect((await call(accountGetDetail, { account_id: accounts.staffA.account_id }, 'adminA')).body).toMatchObject({
      engine_control: true,
    });
    const audit = await t.db
      .selectFrom('audit_log')
      .select(['account_id', 'target_id'])
      .where('action', '=', 'account.engine_control')
      .execute();
    expect(audit).toEqual([{ account_id: accounts.adminA.account_id, target_id: accounts.staffA.account_id }]);
    expect((await reserveEngineCall(t.app, await login(t.app, 'staffA'), terminalA.imei, 0)).status).toBe(200);
  });
});

describe('step-up before a prohibit', () => {
  it('is required for a prohibit now or scheduled, not for a permit', async () => {
    const prohibit = await reserveEngineCall(t.app, t.tokens.managerA, terminalA.imei, 1);
    expect(prohibit.status).toBe(403);
    expect(prohibit.error).toMatchObject({ code: 'STEP_UP_REQUIRED', message: engineMessages.stepUpRequired });
    const scheduled = await requestEngine(t.app, t.tokens.managerA, fleet.A.car_id, 1, inAnHour());
    expect(scheduled.error).toMatchObject({ code: 'STEP_UP_REQUIRED' });
    expect((await reserveEngineCall(t.app, t.tokens.managerA, terminalA.imei, 0)).status).toBe(200);
  });

  it('takes the password: a wrong one is refused with a field error; the right one elevates this session only', async () => {
    const wrong = await call(stepUpCall, { password: 'not-the-password' }, 'managerA');
    expect(wrong.status).toBe(401);
    expect(wrong.error).toMatchObject({ errors: { password: engineMessages.stepUpFailed } });
    await stepUp(t.app, t.tokens.managerA);
    expect((await call(me, {}, 'managerA')).body).toMatchObject({
      stepped_up_until: expect.any(String),
    });
    const other = await login(t.app, 'managerA');
    expect((await reserveEngineCall(t.app, other, terminalA.imei, 1)).error).toMatchObject({
      code: 'STEP_UP_REQUIRED',
    });
    expect((await reserveEngineCall(t.app, t.tokens.managerA, terminalA.imei, 1)).status).toBe(200);
    const audit = await t.db.selectFrom('audit_log').select('action').where('action', '=', 'session.step_up').execute();
    expect(audit).toHaveLength(1);
  });

  it('expires after five minutes', async () => {
    await stepUp(t.app, t.tokens.managerA);
    await t.db
      .updateTable('sessions')
      .set({ stepped_up_until: new Date(Date.now() - 1000) })
      .execute();
    expect((await reserveEngineCall(t.app, t.tokens.managerA, terminalA.imei, 1)).error).toMatchObject({
      code: 'STEP_UP_REQUIRED',
    });
  });
});
