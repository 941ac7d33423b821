import {
  carEngineStateReserve,
  carEngineStateReserveRequest,
  carGetReserveCmd,
  stepUp as stepUpCall,
  type CallResponse,
  type ReservedCommand,
} from '@fleet/contract';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import type { Db } from '../src/db/database.js';
import { createRequestScheduler } from '../src/engine/request-scheduler.js';
import {
  FIXTURE_PASSWORD,
  accounts,
  callAs,
  createSignedInApp,
  fleet,
  type CallOutcome,
  type FixtureAccount,
  type SignedInApp,
} from './helper.js';
import { at, reply, sendBatch } from './telemetry-support.js';

/** Helpers of the engine-control tests: their set-up, console calls and the terminal's side of a command. */
export type Slot = CallResponse<typeof carGetReserveCmd>;

/**
 * The fixture world signed in with the session cache on, as production runs (it is off in other tests,
 * which write sessions by hand): every revocation of the engine right must still be seen by the very next call.
 */
export const createCachedSessionApp = (who?: readonly FixtureAccount[]) =>
  createSignedInApp(who, { env: { SESSION_CACHE: 'true' } });

/**
 * The fixture world with the common account given the engine-control right and `who` signed in, every
 * session stepped up (prohibits need it).
 */
export async function createSteppedUpApp(who: readonly FixtureAccount[]): Promise<SignedInApp> {
  const t = await createSignedInApp(who);
  await grantEngineControl(t.db, accounts.staffA.account_id);
  for (const w of who) await stepUp(t.app, t.tokens[w]);
  return t;
}

/** Empties every slot (and the reservation requests): each engine test starts from nothing. */
export async function clearCommands(db: Db) {
  await db.deleteFrom('reservation_requests').execute();
  await db.deleteFrom('reserved_command_events').execute();
  await db.deleteFrom('reserved_commands').execute();
}

/** Company A's vehicle is deleted and its terminal fitted to company B's vehicle (B's own terminal comes off). */
export async function moveTerminalAToB(db: Db) {
  await db.updateTable('cars').set({ is_delete: true }).where('car_id', '=', fleet.A.car_id).execute();
  await db
    .updateTable('cars')
    .set({ car_device_id: fleet.A.car_device_id, car_data_id: fleet.A.car_data_id })
    .where('car_id', '=', fleet.B.car_id)
    .execute();
}

/** A request scheduler whose clock the test sets. */
export function testScheduler(db: Db) {
  const clock = { now: new Date() };
  return { clock, s: createRequestScheduler({ db, clock: () => clock.now }) };
}

/** Re-enters the password (step_up) so the session may prohibit for the next minutes. */
export async function stepUp(app: FastifyInstance, token: string, password = FIXTURE_PASSWORD) {
  const res = await callAs(app, token, stepUpCall, { password });
  expect(res.status, res.raw.body).toBe(200);
}

/** Gives a fixture account (role 2 has none by default) the engine-control right. */
export async function grantEngineControl(db: Db, accountId: string) {
  await db.updateTable('accounts').set({ engine_control: true }).where('account_id', '=', accountId).execute();
}

export const getSlot = async (app: FastifyInstance, token: string, car_data_id: string, cmd_idx = 0) =>
  (await callAs(app, token, carGetReserveCmd, { car_data_id, cmd_idx })).body;

/** car_engine_state_reserve: permit (0) or prohibit (1) now. */
export const reserveEngineCall = (
  app: FastifyInstance,
  token: string,
  car_data_id: string,
  cmd: 0 | 1,
  expires_in_minutes?: number,
) =>
  callAs(app, token, carEngineStateReserve, {
    car_data_id,
    cmd_info: { cmd, ...(expires_in_minutes ? { expires_in_minutes } : {}) },
  });

/** reserveEngineCall's raw answer, for the tests that read it so. */
export const reserveEngine = async (...args: Parameters<typeof reserveEngineCall>): Promise<LightMyRequestResponse> =>
  (await reserveEngineCall(...args)).raw;

export async function reserveEngineOk(
  app: FastifyInstance,
  token: string,
  car_data_id: string,
  cmd: 0 | 1,
): Promise<ReservedCommand> {
  return (await reserveEngineCall(app, token, car_data_id, cmd)).body.command;
}

/** car_engine_state_reserve_request: permit (0) or prohibit (1) of a vehicle at a time. */
export const requestEngine = (
  app: FastifyInstance,
  token: string,
  car_id: string,
  cmd: 0 | 1,
  executeAt: Date,
): Promise<CallOutcome<typeof carEngineStateReserveRequest>> =>
  callAs(app, token, carEngineStateReserveRequest, {
    request: { car_id, cmd, execute_at: executeAt.toISOString() },
  });

/** requestEngine, which must succeed: the request's id. */
export async function requestEngineOk(
  app: FastifyInstance,
  token: string,
  car_id: string,
  cmd: 0 | 1,
  executeAt: Date,
) {
  return (await requestEngine(app, token, car_id, cmd, executeAt)).body.request_id;
}

let seq = 10_000;
/** The terminal polls: returns the ids of the commands it was handed. */
export async function poll(app: FastifyInstance, terminal: { id: string }): Promise<number[]> {
  const res = await sendBatch(app, terminal, { seq: ++seq, records: [] });
  expect(res.statusCode, res.body).toBe(200);
  return reply(res).commands.map((c) => c.id);
}

/** The terminal reports a result; returns the gateway's reply. */
export async function report(
  app: FastifyInstance,
  terminal: { id: string },
  command_id: number,
  success = true,
  detail = '',
) {
  const res = await sendBatch(app, terminal, {
    seq: ++seq,
    records: [{ type: 'command_result', time: at(30), command_id, success, detail }],
  });
  expect(res.statusCode, res.body).toBe(200);
  return reply(res);
}

/** Moves a command's expiry into the past, as if its time had passed. */
export async function expireNow(db: Db, commandId: number, minutesAgo = 1) {
  await db
    .updateTable('reserved_commands')
    .set({ expires_at: new Date(Date.now() - minutesAgo * 60_000) })
    .where('id', '=', commandId)
    .execute();
}

export const eventsOf = (c: ReservedCommand | null) =>
  (c?.events ?? []).map((e) => `${e.state}:${e.event}:${e.account_id ?? '-'}`);
