import type { CarGetReserveCmdResponse, ReservedCommand } from '@fleet/contract';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import type { z } from 'zod';
import type { Db } from '../src/db/database.js';
import { FIXTURE_PASSWORD, post } from './helper.js';
import { at, reply, sendBatch } from './telemetry-support.js';

/** Helpers of the engine-control tests: console calls and the terminal's side of a command. */
export type Slot = z.infer<typeof CarGetReserveCmdResponse>;

/** Re-enters the password (POST /api/step_up) so the session may prohibit for the next minutes. */
export async function stepUp(app: FastifyInstance, token: string, password = FIXTURE_PASSWORD) {
  const res = await post(app, '/api/step_up', { password }, token);
  expect(res.statusCode, res.body).toBe(200);
}

/** Gives a fixture account (role 2 has none by default) the engine-control right. */
export async function grantEngineControl(db: Db, accountId: string) {
  await db.updateTable('accounts').set({ engine_control: true }).where('account_id', '=', accountId).execute();
}

export async function ok<T>(res: Promise<LightMyRequestResponse>): Promise<T> {
  const r = await res;
  expect(r.statusCode, r.body).toBe(200);
  return r.json<T>();
}

export const getSlot = (app: FastifyInstance, token: string, car_data_id: string, cmd_idx = 0) =>
  ok<Slot>(post(app, '/api/car_get_reserve_cmd', { car_data_id, cmd_idx }, token));

export const reserveEngine = (
  app: FastifyInstance,
  token: string,
  car_data_id: string,
  cmd: 0 | 1,
  expires_in_minutes?: number,
) =>
  post(
    app,
    '/api/car_engine_state_reserve',
    { car_data_id, cmd_info: { cmd, ...(expires_in_minutes ? { expires_in_minutes } : {}) } },
    token,
  );

export async function reserveEngineOk(
  app: FastifyInstance,
  token: string,
  car_data_id: string,
  cmd: 0 | 1,
): Promise<ReservedCommand> {
  return (await ok<{ command: ReservedCommand }>(reserveEngine(app, token, car_data_id, cmd))).command;
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
