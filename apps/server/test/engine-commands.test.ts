import {
  carDeleteReserveEngineCmd,
  carEngineStateReserve,
  carGetEngineLog,
  carGetReserveCmd,
  carGetReserveCmdHistory,
  carReserveCmd,
  engineMessages,
} from '@fleet/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  clearCommands,
  createSteppedUpApp,
  eventsOf,
  expireNow,
  getSlot,
  poll,
  report,
  reserveEngineCall,
  reserveEngineOk,
} from './engine-support.js';
import { accounts, callWith, unchecked, type SignedInApp } from './helper.js';
import { latest, terminalA, terminalB } from './telemetry-support.js';

let t: SignedInApp;
let token: SignedInApp['tokens'];
beforeAll(async () => {
  t = await createSteppedUpApp(['staffA', 'managerA', 'adminB', 'superAdmin']);
  token = t.tokens;
});
afterAll(() => t?.close());

/** Every test starts with empty slots. */
beforeEach(() => clearCommands(t.db));

const call: SignedInApp['call'] = (...args) => t.call(...args);

describe('the lifecycle 1 execWait → 2 resultWait → 3 resultEnd', () => {
  it('a common user of the own company reserves; the terminal fetches and reports; every step is on the timeline', async () => {
    const before = await getSlot(t.app, token.staffA, terminalA.imei);
    expect(before).toEqual({ car_data_id: terminalA.imei, cmd_idx: 0, state: 0, command: null });

    const reserved = await reserveEngineOk(t.app, token.staffA, terminalA.imei, 1);
    expect(reserved).toMatchObject({
      cmd_idx: 0,
      cmd_type: 'set_engine_boot_permission',
      cmd_info: { cmd: 1 },
      state: 1,
      status: 'execWait',
      created_by: accounts.staffA.account_id,
      created_by_name: accounts.staffA.name,
      fetched_at: null,
      result: null,
    });
    expect(Date.parse(reserved.expires_at!)).toBeGreaterThan(Date.parse(reserved.created_at));
    expect(eventsOf(reserved)).toEqual(['1:reserved:staff-a']);
    expect((await getSlot(t.app, token.staffA, terminalA.imei)).state).toBe(1);

    expect(await poll(t.app, terminalA)).toEqual([reserved.command_id]);
    const fetched = await getSlot(t.app, token.staffA, terminalA.imei);
    expect(fetched.state).toBe(2);
    expect(fetched.command).toMatchObject({ status: 'resultWait', state: 2 });
    expect(fetched.command!.fetched_at).not.toBeNull();
    expect(eventsOf(fetched.command)).toEqual(['1:reserved:staff-a', '2:fetched:-']);

    expect((await report(t.app, terminalA, reserved.command_id, true)).rejected).toEqual([]);
    const done = await getSlot(t.app, token.staffA, terminalA.imei);
    expect(done.state).toBe(3);
    expect(done.command).toMatchObject({ status: 'succeeded', state: 3, result: { success: true, detail: '' } });
    expect(done.command!.result_at).not.toBeNull();
    expect(eventsOf(done.command)).toEqual(['1:reserved:staff-a', '2:fetched:-', '3:succeeded:-']);

    // The gateway's part: engine line and engine log, with who ordered it.
    expect((await latest(t.db, terminalA.imei))?.engine_line).toBe('disconnected');
    const log = (await call(carGetEngineLog, { car_data_id: terminalA.imei }, 'staffA')).body;
    expect(log.list).toContainEqual(
      expect.objectContaining({ command_id: reserved.command_id, account_id: 'staff-a' }),
    );
  });

  it('keeps a failed result as resultEnd with the reason', async () => {
    const c = await reserveEngineOk(t.app, token.managerA, terminalA.imei, 0);
    await poll(t.app, terminalA);
    await report(t.app, terminalA, c.command_id, false, 'リレー応答なし');
    const slot = await getSlot(t.app, token.managerA, terminalA.imei);
    expect(slot).toMatchObject({
      state: 3,
      command: { status: 'failed', result: { success: false, detail: 'リレー応答なし' } },
    });
  });

  it('refuses a second command in a busy slot (execWait and resultWait) with a Japanese 409', async () => {
    const c = await reserveEngineOk(t.app, token.staffA, terminalA.imei, 1);
    let res = await reserveEngineCall(t.app, token.managerA, terminalA.imei, 0);
    expect(res.status).toBe(409);
    expect(res.error).toMatchObject({ code: 'CONFLICT', message: engineMessages.slotBusy });
    await poll(t.app, terminalA);
    res = await reserveEngineCall(t.app, token.managerA, terminalA.imei, 0);
    expect(res.error).toMatchObject({ message: engineMessages.slotBusy });
    await report(t.app, terminalA, c.command_id);
    // Finished: the slot is free again.
    expect((await reserveEngineCall(t.app, token.managerA, terminalA.imei, 0)).status).toBe(200);
  });

  it('answers the reservation call with the contract shape and validates cmd_info in Japanese', async () => {
    const res = await call(
      carEngineStateReserve,
      { car_data_id: terminalA.imei, cmd_info: unchecked({ cmd: 2, expires_in_minutes: 20000 }) },
      'staffA',
    );
    expect(res.status).toBe(400);
    expect(res.error.errors).toEqual({
      'cmd_info.cmd': '選択肢から選んでください',
      'cmd_info.expires_in_minutes': engineMessages.expiresRange,
    });
    expect(await t.db.selectFrom('reserved_commands').select('id').execute()).toEqual([]);
  });
});

describe('deleting a reserved command', () => {
  it('is allowed in execWait: the slot is free, the terminal never gets it, the timeline says who deleted it', async () => {
    const c = await reserveEngineOk(t.app, token.staffA, terminalA.imei, 1);
    expect((await call(carDeleteReserveEngineCmd, { car_data_id: terminalA.imei }, 'managerA')).body.ok).toBe(true);
    const slot = await getSlot(t.app, token.staffA, terminalA.imei);
    expect(slot.state).toBe(0);
    expect(slot.command).toMatchObject({ command_id: c.command_id, status: 'deleted', state: 1 });
    expect(slot.command!.closed_at).not.toBeNull();
    expect(eventsOf(slot.command)).toEqual(['1:reserved:staff-a', '1:deleted:manager-a']);
    expect(await poll(t.app, terminalA)).toEqual([]);
  });

  it('is refused in resultWait and resultEnd, and when there is nothing to delete', async () => {
    const del = () => call(carDeleteReserveEngineCmd, { car_data_id: terminalA.imei, cmd_idx: 0 }, 'staffA');
    expect((await del()).error).toMatchObject({ code: 'CONFLICT', message: engineMessages.nothingToDelete });
    const c = await reserveEngineOk(t.app, token.staffA, terminalA.imei, 1);
    await poll(t.app, terminalA);
    let res = await del();
    expect(res.status).toBe(409);
    expect(res.error.message).toBe(engineMessages.deleteFetched);
    await report(t.app, terminalA, c.command_id);
    res = await del();
    expect(res.status).toBe(409);
    expect(res.error.message).toBe(engineMessages.deleteFinished);
    expect((await getSlot(t.app, token.staffA, terminalA.imei)).command?.status).toBe('succeeded');
  });
});

describe('the audit row commits with the change it records', () => {
  it('a reservation or a delete whose audit row cannot be written leaves nothing behind', async () => {
    // The audit write fails (a crash between the two writes would look the same to the database).
    await sql`CREATE FUNCTION test_refuse_audit() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'audit refused'; END $$`.execute(t.db);
    const refuse = (action: string) =>
      sql`CREATE TRIGGER test_refuse_audit BEFORE INSERT ON audit_log FOR EACH ROW
        WHEN (NEW.action = ${sql.lit(action)}) EXECUTE FUNCTION test_refuse_audit()`.execute(t.db);
    const allow = () => sql`DROP TRIGGER test_refuse_audit ON audit_log`.execute(t.db);
    try {
      await refuse('engine_command.reserve');
      expect((await reserveEngineCall(t.app, token.staffA, terminalA.imei, 1)).status).toBe(500);
      await allow();
      expect(await t.db.selectFrom('reserved_commands').select('id').execute()).toEqual([]);
      expect((await getSlot(t.app, token.staffA, terminalA.imei)).state).toBe(0);

      const c = await reserveEngineOk(t.app, token.staffA, terminalA.imei, 1);
      await refuse('engine_command.delete');
      expect((await call(carDeleteReserveEngineCmd, { car_data_id: terminalA.imei }, 'managerA')).status).toBe(500);
      await allow();
      const slot = await getSlot(t.app, token.staffA, terminalA.imei);
      expect(slot.command).toMatchObject({ command_id: c.command_id, status: 'execWait' });
      expect(eventsOf(slot.command)).toEqual(['1:reserved:staff-a']);
    } finally {
      await sql`DROP TRIGGER IF EXISTS test_refuse_audit ON audit_log`.execute(t.db);
      await sql`DROP FUNCTION test_refuse_audit()`.execute(t.db);
    }
  });
});

describe('expiry', () => {
  it('never delivers a command whose expiry passed before a fetch, and shows it as expired', async () => {
    const c = await reserveEngineOk(t.app, token.staffA, terminalA.imei, 1);
    await expireNow(t.db, c.command_id);
    expect(await poll(t.app, terminalA)).toEqual([]);
    const slot = await getSlot(t.app, token.staffA, terminalA.imei);
    expect(slot.state).toBe(0);
    expect(slot.command).toMatchObject({ command_id: c.command_id, status: 'expired', state: 1, fetched_at: null });
    expect(slot.command!.closed_at).toBe(slot.command!.expires_at);
    expect(eventsOf(slot.command)).toEqual(['1:reserved:staff-a', '1:expired:-']);
    expect(await poll(t.app, terminalA)).toEqual([]);
    // The expired command no longer holds the slot.
    expect((await reserveEngineCall(t.app, token.staffA, terminalA.imei, 0)).status).toBe(200);
  });

  it('frees the slot of a fetched command whose result never came, once the grace after expiry passed', async () => {
    const c = await reserveEngineOk(t.app, token.staffA, terminalA.imei, 1);
    await poll(t.app, terminalA);
    await expireNow(t.db, c.command_id, 1);
    expect((await getSlot(t.app, token.staffA, terminalA.imei)).state).toBe(2);
    await expireNow(t.db, c.command_id, 11);
    const slot = await getSlot(t.app, token.staffA, terminalA.imei);
    expect(slot).toMatchObject({ state: 0, command: { status: 'expired', state: 2 } });
    // A result arriving after that is refused by the gateway.
    expect((await report(t.app, terminalA, c.command_id)).rejected).toHaveLength(1);
  });
});

describe('the other command types', () => {
  it('go through the same lifecycle in their own slots', async () => {
    const update = (
      await call(
        carReserveCmd,
        { car_data_id: terminalA.imei, cmd_type: 'req_client_update', cmd_info: { version: '2.1.0' } },
        'superAdmin',
      )
    ).body;
    expect(update.command).toMatchObject({
      cmd_idx: 1,
      cmd_type: 'req_client_update',
      cmd_info: { version: '2.1.0' },
      state: 1,
    });
    const setting = (
      await call(
        carReserveCmd,
        { car_data_id: terminalA.imei, cmd_type: 'req_car_setting_update', expires_in_minutes: 60 },
        'superAdmin',
      )
    ).body;
    expect(setting.command).toMatchObject({ cmd_idx: 2, cmd_info: {} });
    const engine = await reserveEngineOk(t.app, token.staffA, terminalA.imei, 0);
    const busy = await call(
      carReserveCmd,
      { car_data_id: terminalA.imei, cmd_type: 'req_client_update' },
      'superAdmin',
    );
    expect(busy.error).toMatchObject({ message: engineMessages.slotBusy });

    expect((await poll(t.app, terminalA)).sort()).toEqual(
      [update.command.command_id, setting.command.command_id, engine.command_id].sort(),
    );
    await report(t.app, terminalA, update.command.command_id);
    expect((await getSlot(t.app, token.staffA, terminalA.imei, 1)).command).toMatchObject({ status: 'succeeded' });
    expect((await getSlot(t.app, token.staffA, terminalA.imei, 2)).state).toBe(2);
    expect(
      (await call(carDeleteReserveEngineCmd, { car_data_id: terminalA.imei, cmd_idx: 2 }, 'superAdmin')).error.message,
    ).toBe(engineMessages.deleteFetched);
  });

  it('lists the history newest first with who ordered each command', async () => {
    const first = await reserveEngineOk(t.app, token.staffA, terminalA.imei, 1);
    await call(carDeleteReserveEngineCmd, { car_data_id: terminalA.imei }, 'staffA');
    const second = await reserveEngineOk(t.app, token.managerA, terminalA.imei, 0);
    await call(carReserveCmd, { car_data_id: terminalA.imei, cmd_type: 'req_client_update' }, 'superAdmin');
    const all = (await call(carGetReserveCmdHistory, { car_data_id: terminalA.imei }, 'staffA')).body;
    expect(all.list.map((c) => [c.cmd_idx, c.status, c.created_by_name])).toEqual([
      [1, 'execWait', accounts.superAdmin.name],
      [0, 'execWait', accounts.managerA.name],
      [0, 'deleted', accounts.staffA.name],
    ]);
    const engine = (
      await call(carGetReserveCmdHistory, { car_data_id: terminalA.imei, cmd_idx: 0, limit: 1 }, 'staffA')
    ).body;
    expect(engine.list.map((c) => c.command_id)).toEqual([second.command_id]);
    expect(first.command_id).toBeLessThan(second.command_id);
  });
});

describe('who may', () => {
  const calls = (imei: string) => [
    callWith(carGetReserveCmd, { car_data_id: imei, cmd_idx: 0 }),
    callWith(carGetReserveCmdHistory, { car_data_id: imei }),
    callWith(carEngineStateReserve, { car_data_id: imei, cmd_info: { cmd: 1 } }),
    callWith(carReserveCmd, { car_data_id: imei, cmd_type: 'req_client_update' }),
    callWith(carDeleteReserveEngineCmd, { car_data_id: imei }),
  ];

  it("refuses another company's vehicle as not found, to common users and company admins alike", async () => {
    for (const c of calls(terminalB.imei)) {
      const res = await c.send(t.app, token.staffA);
      expect(res.status, c.call.path).toBe(404);
    }
    for (const c of calls(terminalA.imei)) expect((await c.send(t.app, token.adminB)).status, c.call.path).toBe(404);
    expect(await t.db.selectFrom('reserved_commands').select('id').execute()).toEqual([]);
  });

  it('lets the super admin act on any vehicle, and nobody without a session', async () => {
    const c = await reserveEngineOk(t.app, token.superAdmin, terminalB.imei, 0);
    expect(c.created_by).toBe(accounts.superAdmin.account_id);
    expect((await call(carGetReserveCmd, { car_data_id: terminalB.imei })).status).toBe(401);
  });

  it('refuses a deleted vehicle with the reason', async () => {
    await t.db.updateTable('cars').set({ is_delete: true }).where('car_id', '=', 'car-a').execute();
    try {
      const res = await reserveEngineCall(t.app, token.managerA, terminalA.imei, 1);
      expect(res.status).toBe(409);
      expect(res.error.message).toBe(engineMessages.carDeleted);
    } finally {
      await t.db.updateTable('cars').set({ is_delete: false }).where('car_id', '=', 'car-a').execute();
    }
  });

  it("refuses a terminal's result for another terminal's command (the gateway's check, also in telemetry-gateway.test.ts)", async () => {
    const c = await reserveEngineOk(t.app, token.staffA, terminalA.imei, 1);
    await poll(t.app, terminalA);
    const r = await report(t.app, terminalB, c.command_id);
    expect(r.rejected).toEqual([{ index: 0, reason: expect.stringContaining('この端末のものではありません') }]);
    expect((await getSlot(t.app, token.staffA, terminalA.imei)).state).toBe(2);
  });
});
