import {
  carDataSync,
  carGetAreaStatus,
  carGetDetail,
  carGetEngineLog,
  carGetLatestState,
  carGetReserveCmdHistory,
  carList,
} from '@fleet/contract';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCachedSessionApp, moveTerminalAToB, poll, reserveEngineOk } from './engine-support.js';
import { accounts, companyB, fleet, type SignedInApp } from './helper.js';
import { sendBatch, terminalA, terminalB } from './telemetry-support.js';

/**
 * Two leaks across companies that the model-based test (engine-authority.model.test.ts) found after
 * issue 12, each shrunk to a few steps: a terminal moves between the companies' vehicles, then sends
 * a record of another kind than the one the previous company last saw.
 */
let t: SignedInApp;

beforeEach(async () => {
  t = await createCachedSessionApp(['superAdmin', 'adminA', 'adminB']);
});
afterEach(() => t.close());

const call: SignedInApp['call'] = (...args) => t.call(...args);

let seq = 0;
/** The terminal sends one record now (a few milliseconds after whatever came before). */
async function send(terminal: { id: string }, record: Record<string, unknown>) {
  await new Promise((resolve) => setTimeout(resolve, 5));
  const res = await sendBatch(t.app, terminal, {
    seq: ++seq,
    records: [{ ...record, time: new Date().toISOString() }],
  });
  expect(res.json()).toMatchObject({ accepted: 1 });
}
const gps = (lat: number) => ({ type: 'gps', lat, lng: 139.7, speed: 30 });
const battery = { type: 'battery', voltage: 12.4, percentage: 80 };

describe('the latest state of a terminal that moved to another company', () => {
  it("does not show the previous company's last position once the terminal reports something else", async () => {
    await send(terminalA, gps(35.6));
    await moveTerminalAToB(t.db);
    // Before the fix the battery record made the whole state company B's, company A's position included.
    await send(terminalA, battery);

    const detail = (await call(carGetDetail, { car_id: fleet.B.car_id }, 'adminB')).body;
    expect(detail.latest).toMatchObject({ lat: null, battery_voltage: 12.4 });
    const list = (await call(carList, { isDelete: true }, 'adminB')).body;
    // The list carries no position at all (CarListState); what it shows is the detail's, masked alike.
    const { engine_running, engine_line, connection, device_state, last_seen_at } = detail.latest!;
    expect(list.list.find((c) => c.car_id === fleet.B.car_id)?.latest).toEqual({
      engine_running,
      engine_line,
      connection,
      device_state,
      last_seen_at,
    });
    const area = (await call(carGetAreaStatus, { car_id: fleet.B.car_id }, 'adminB')).body;
    expect(area.position).toBeNull();
    const state = (await call(carGetLatestState, { car_data_id: terminalA.imei }, 'adminB')).body;
    expect(state.state).toMatchObject({ lat: null, battery_voltage: 12.4 });
    const synced = (await call(carDataSync, { car_id: fleet.B.car_id, car_data_id: terminalA.imei }, 'adminB')).body;
    expect(synced.state).toMatchObject({ lat: null, battery_voltage: 12.4 });

    // Its own positions it sees; the super admin sees everything all along.
    const all = (await call(carGetDetail, { car_id: fleet.B.car_id }, 'superAdmin')).body;
    expect(all.latest).toMatchObject({ lat: 35.6, battery_voltage: 12.4 });
    await send(terminalA, gps(35.9));
    const after = (await call(carGetDetail, { car_id: fleet.B.car_id }, 'adminB')).body;
    expect(after.latest).toMatchObject({ lat: 35.9, battery_voltage: 12.4 });
  });
});

describe('the result of a command the terminal fetched for one company and reports on another company’s vehicle', () => {
  it("changes the engine line in the new company's engine log without naming the other company's command", async () => {
    const command = await reserveEngineOk(t.app, t.tokens.adminB, terminalB.imei, 0);
    expect(await poll(t.app, terminalB)).toEqual([command.command_id]);
    // The super admin fits company B's terminal to company A's vehicle before the result comes.
    await t.db.updateTable('cars').set({ is_delete: true }).where('car_id', '=', fleet.B.car_id).execute();
    await t.db
      .updateTable('cars')
      .set({ car_device_id: fleet.B.car_device_id, car_data_id: fleet.B.car_data_id })
      .where('car_id', '=', fleet.A.car_id)
      .execute();
    await send(terminalB, { type: 'command_result', command_id: command.command_id, success: true, detail: '' });

    const theirs = (await call(carGetEngineLog, { car_data_id: terminalB.imei }, 'adminA')).body;
    // Before the fix: command_id, command and account_id of company B's admin, with the name.
    expect(theirs.list).toEqual([
      expect.objectContaining({
        engine_line: 'connected',
        command: null,
        command_id: null,
        account_id: null,
        account_name: null,
      }),
    ]);

    // The command's own history keeps the result, for the super admin (company B no longer sees the terminal).
    const history = (await call(carGetReserveCmdHistory, { car_data_id: terminalB.imei }, 'superAdmin')).body;
    expect(history.list).toMatchObject([
      { command_id: command.command_id, status: 'succeeded', created_by: accounts.adminB.account_id },
    ]);
    expect(await t.db.selectFrom('reserved_commands').select('company_id').executeTakeFirstOrThrow()).toEqual({
      company_id: companyB,
    });
  });

  it('names the command in the engine log while the terminal is on a vehicle of the command’s company', async () => {
    const permit = await reserveEngineOk(t.app, t.tokens.adminA, terminalA.imei, 0);
    expect(await poll(t.app, terminalA)).toEqual([permit.command_id]);
    await send(terminalA, { type: 'command_result', command_id: permit.command_id, success: true, detail: '' });
    const log = (await call(carGetEngineLog, { car_data_id: terminalA.imei }, 'adminA')).body;
    expect(log.list).toMatchObject([{ command_id: permit.command_id, account_id: accounts.adminA.account_id }]);
  });
});
