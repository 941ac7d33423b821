import {
  carDeleteReserveEngineCmdRequest,
  carEngineStateReserveRequest,
  engineMessages,
  getReserveRequests,
  REQUEST_PENDING_MAX,
} from '@fleet/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import { hashDeviceSecret } from '../src/credentials/device-secret.js';
import { openDatabase, type Database } from '../src/db/database.js';
import { urlForDatabase } from './databases.js';
import {
  clearCommands,
  createSteppedUpApp,
  eventsOf,
  getSlot,
  poll,
  requestEngineOk,
  reserveEngineOk,
  testScheduler,
} from './engine-support.js';
import { accounts, callAs, companyA, fleet, unchecked, type SignedInApp } from './helper.js';
import { terminalA } from './telemetry-support.js';

let t: SignedInApp;
let token: SignedInApp['tokens'];
beforeAll(async () => {
  t = await createSteppedUpApp(['staffA', 'managerA', 'adminB']);
  token = t.tokens;
});
afterAll(() => t?.close());

beforeEach(() => clearCommands(t.db));

const call: SignedInApp['call'] = (...args) => t.call(...args);
const inMinutes = (m: number, from = Date.now()) => new Date(from + m * 60_000);
const requests = async (car_id = fleet.A.car_id, who = token.staffA) =>
  (await callAs(t.app, who, getReserveRequests, { car_id })).body;
/** car_engine_state_reserve_request with a form as given (validation tests send invalid ones). */
const request = (body: Record<string, unknown>, who = token.staffA) =>
  callAs(t.app, who, carEngineStateReserveRequest, { request: unchecked(body) });
const requestOk = (car_id: string, cmd: 0 | 1, executeAt: Date, who = token.staffA) =>
  requestEngineOk(t.app, who, car_id, cmd, executeAt);

describe('reservation requests', () => {
  it('fires a request for one minute ahead exactly once, when the clock passes it', async () => {
    const start = Date.now();
    const id = await requestOk(fleet.A.car_id, 1, inMinutes(1, start));
    const listed = await requests();
    expect(listed.pending).toEqual([
      expect.objectContaining({
        request_id: id,
        cmd: 1,
        status: 'pending',
        created_by: 'staff-a',
        created_by_name: accounts.staffA.name,
        command_id: null,
      }),
    ]);

    const { clock, s } = testScheduler(t.db);
    clock.now = new Date(start);
    expect(await s.tick()).toEqual({ fired: 0, failed: 0, cancelled: 0, expired: 0, conflicts: 0 });
    clock.now = inMinutes(1, start + 1000);
    expect((await s.tick()).fired).toBe(1);
    expect((await s.tick()).fired).toBe(0);
    clock.now = inMinutes(10, start);
    expect((await s.tick()).fired).toBe(0);

    const after = await requests();
    expect(after.pending).toEqual([]);
    const [fired] = after.recent;
    expect(fired).toMatchObject({ request_id: id, status: 'fired', command_status: 'execWait', reason: null });
    const slot = await getSlot(t.app, token.staffA, terminalA.imei);
    expect(slot.command).toMatchObject({
      command_id: fired!.command_id,
      request_id: id,
      cmd_info: { cmd: 1 },
      created_by: 'staff-a',
      state: 1,
    });
    expect(eventsOf(slot.command)).toEqual(['1:reserved:staff-a']);
    const commands = await t.db.selectFrom('reserved_commands').select('id').where('request_id', '=', id).execute();
    expect(commands).toHaveLength(1);

    // The fired command goes on like any other.
    expect(await poll(t.app, terminalA)).toEqual([fired!.command_id]);
    expect((await requests()).recent[0]?.command_status).toBe('resultWait');
  });

  it('refuses execute_at in the past, too far ahead or unreadable, with Japanese field errors', async () => {
    const cases = [
      [new Date(Date.now() - 60_000).toISOString(), engineMessages.executeAtPast],
      [inMinutes(91 * 24 * 60).toISOString(), engineMessages.executeAtTooFar],
      ['来週', engineMessages.executeAtFormat],
    ] as const;
    for (const [execute_at, message] of cases) {
      const res = await request({ car_id: fleet.A.car_id, cmd: 0, execute_at });
      expect(res.status).toBe(400);
      expect(res.error.errors).toEqual({ 'request.execute_at': message });
    }
    const res = await request({ car_id: fleet.A.car_id, cmd: 3, execute_at: '2026/13/40 10:00' });
    expect(res.error.errors).toMatchObject({ 'request.cmd': '選択肢から選んでください' });
    expect((await requests()).pending).toEqual([]);
  });

  it('deletes a request only while it is pending, keeping who cancelled it', async () => {
    const id = await requestOk(fleet.A.car_id, 0, inMinutes(30));
    const del = () => call(carDeleteReserveEngineCmdRequest, { request_id: id }, 'managerA');
    expect((await del()).status).toBe(200);
    const [cancelled] = (await requests()).recent;
    expect(cancelled).toMatchObject({
      status: 'cancelled',
      cancelled_by: 'manager-a',
      cancelled_by_name: accounts.managerA.name,
    });
    expect(cancelled!.cancelled_at).not.toBeNull();
    const again = await del();
    expect(again.status).toBe(409);
    expect(again.error.message).toBe(engineMessages.requestNotPending);

    const fired = await requestOk(fleet.A.car_id, 1, inMinutes(1));
    const { clock, s } = testScheduler(t.db);
    clock.now = inMinutes(2);
    await s.tick();
    const res = await call(carDeleteReserveEngineCmdRequest, { request_id: fired }, 'staffA');
    expect(res.error).toMatchObject({ code: 'CONFLICT', message: engineMessages.requestNotPending });
    expect((await call(carDeleteReserveEngineCmdRequest, { request_id: 'no-such-request' }, 'staffA')).status).toBe(
      404,
    );
  });

  it('marks a request failed with the reason when the slot is busy at its time', async () => {
    const busy = await reserveEngineOk(t.app, token.staffA, terminalA.imei, 0);
    const id = await requestOk(fleet.A.car_id, 1, inMinutes(1));
    const { clock, s } = testScheduler(t.db);
    clock.now = inMinutes(2);
    expect(await s.tick()).toMatchObject({ fired: 0, failed: 1 });
    expect((await requests()).recent[0]).toMatchObject({
      request_id: id,
      status: 'failed',
      reason: engineMessages.firedSlotBusy,
      command_id: null,
    });
    expect((await getSlot(t.app, token.staffA, terminalA.imei)).command?.command_id).toBe(busy.command_id);
  });

  it('fires the first of two requests due together for one vehicle and fails the second (slot busy)', async () => {
    const first = await requestOk(fleet.A.car_id, 1, inMinutes(1));
    const second = await requestOk(fleet.A.car_id, 0, inMinutes(1.5));
    const { clock, s } = testScheduler(t.db);
    clock.now = inMinutes(2);
    expect(await s.tick()).toMatchObject({ fired: 1, failed: 1 });
    const byId = new Map((await requests()).recent.map((r) => [r.request_id, r]));
    expect(byId.get(first)).toMatchObject({ status: 'fired' });
    expect(byId.get(second)).toMatchObject({ status: 'failed', reason: engineMessages.firedSlotBusy });
  });

  it(`holds at most ${REQUEST_PENDING_MAX} pending requests per vehicle`, async () => {
    await t.db
      .insertInto('reservation_requests')
      .values(
        Array.from({ length: REQUEST_PENDING_MAX }, (_, i) => ({
          request_id: `bulk-${i}`,
          car_id: fleet.A.car_id,
          cmd: 0,
          execute_at: inMinutes(60 + i),
          created_by: 'staff-a',
        })),
      )
      .execute();
    const res = await request({ car_id: fleet.A.car_id, cmd: 1, execute_at: inMinutes(5).toISOString() });
    expect(res.status).toBe(409);
    expect(res.error.message).toBe(engineMessages.tooManyPending);
  });

  it('closes expired commands on its rounds, at the time they expired', async () => {
    const c = await reserveEngineOk(t.app, token.staffA, terminalA.imei, 0);
    const { clock, s } = testScheduler(t.db);
    clock.now = new Date(Date.parse(c.expires_at!) + 1000);
    expect((await s.tick()).expired).toBe(1);
    const row = await t.db
      .selectFrom('reserved_commands')
      .select(['deleted_at', 'closed_reason'])
      .where('id', '=', c.command_id)
      .executeTakeFirstOrThrow();
    expect(row.closed_reason).toBe('expired');
    expect(new Date(row.deleted_at!).toISOString()).toBe(c.expires_at);
  });

  it("refuses another company's vehicle and request as not found", async () => {
    const id = await requestOk(fleet.A.car_id, 0, inMinutes(30));
    expect((await call(getReserveRequests, { car_id: fleet.A.car_id }, 'adminB')).status).toBe(404);
    expect(
      (await request({ car_id: fleet.A.car_id, cmd: 0, execute_at: inMinutes(5).toISOString() }, token.adminB)).status,
    ).toBe(404);
    expect((await call(carDeleteReserveEngineCmdRequest, { request_id: id }, 'adminB')).status).toBe(404);
    expect(
      (await request({ car_id: fleet.B.car_id, cmd: 0, execute_at: inMinutes(5).toISOString() }, token.staffA)).status,
    ).toBe(404);
    expect((await requests()).pending.map((r) => r.request_id)).toEqual([id]);
  });
});

describe('two schedulers over one database', () => {
  /** On PostgreSQL a second pool to the same database, as a second server instance would have. */
  let second: Database | undefined;
  beforeAll(async () => {
    const url = inject('databaseUrl');
    if (!url) return;
    const { rows } = await sql<{ name: string }>`SELECT current_database() AS name`.execute(t.db);
    second = await openDatabase({ url: urlForDatabase(url, rows[0]!.name), poolSize: 4 });
  });
  afterAll(() => second?.close());

  const CARS = 12;
  beforeAll(async () => {
    const extra = Array.from({ length: CARS }, (_, i) => ({
      car_id: `race-car-${i}`,
      car_device_id: `race-device-${i}`,
      car_data_id: `35840910001${String(i).padStart(4, '0')}`,
    }));
    await t.db
      .insertInto('devices')
      .values(
        extra.map((e) => ({
          car_device_id: e.car_device_id,
          car_data_id: e.car_data_id,
          password_hash: hashDeviceSecret('x'),
        })),
      )
      .execute();
    await t.db
      .insertInto('cars')
      .values(extra.map((e) => ({ ...e, company_id: companyA, user_id: fleet.A.user_id })))
      .execute();
  });

  it('fire each due request exactly once, racing on the same requests', async () => {
    for (let round = 0; round < 3; round++) {
      await t.db.deleteFrom('reservation_requests').execute();
      await t.db.deleteFrom('reserved_command_events').execute();
      await t.db.deleteFrom('reserved_commands').execute();
      const ids: string[] = [];
      for (let i = 0; i < CARS; i++)
        ids.push(await requestOk(`race-car-${i}`, (i % 2) as 0 | 1, inMinutes(1), token.managerA));
      ids.push(await requestOk(fleet.A.car_id, 1, inMinutes(1), token.managerA));

      const a = testScheduler(t.db);
      const b = testScheduler(second?.db ?? t.db);
      a.clock.now = b.clock.now = inMinutes(2);
      const results = await Promise.all([a.s.tick(), b.s.tick(), a.s.tick(), b.s.tick()]);
      expect(results.reduce((n, r) => n + r.fired, 0)).toBe(ids.length);
      expect(results.reduce((n, r) => n + r.failed, 0)).toBe(0);
      // Claimed with SKIP LOCKED: no scheduler even tried a request another one held.
      expect(results.reduce((n, r) => n + r.conflicts, 0)).toBe(0);

      const perRequest = await t.db
        .selectFrom('reserved_commands')
        .select(['request_id', (eb) => eb.fn.countAll<number>().as('n')])
        .groupBy('request_id')
        .execute();
      expect(perRequest.map((r) => [r.request_id, Number(r.n)]).sort()).toEqual(ids.map((id) => [id, 1]).sort());
      const reservedEvents = await t.db
        .selectFrom('reserved_command_events')
        .select('id')
        .where('event', '=', 'reserved')
        .execute();
      expect(reservedEvents).toHaveLength(ids.length);
      const statuses = await t.db.selectFrom('reservation_requests').select('status').distinct().execute();
      expect(statuses.map((s) => s.status)).toEqual(['fired']);
    }
  });
});
