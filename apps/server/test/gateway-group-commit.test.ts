import type { DeviceBatch, DeviceRecordInput, TelemetryState } from '@fleet/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { coalesce } from '../src/gateway/coalesce.js';
import { reserveCommand } from '../src/commands/terminal-commands.repository.js';
import { GroupCommit } from '../src/gateway/group-commit.js';
import { TELEMETRY_ITEMS } from '../src/notify/evaluate-batch.js';
import { findSubscribers, seesCompany, subscriberExists } from '../src/notify/settings.repository.js';
import { accounts, createTestApp, fleet, seedFixtures, type TestApp } from './helper.js';
import { PUBLIC_URL, resetNotifyState, subscribe } from './notify-support.js';
import { at, count, latest } from './telemetry-support.js';
import { notificationFollower } from '../src/notify/ingest-follower.js';

/**
 * The gateway's group commit (src/gateway/group-commit.ts): batches arriving
 * together share one transaction, yet each is stored, judged and answered
 * exactly as it would be alone, and one failing batch fails nobody else.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await seedFixtures(t.db);
});
afterAll(() => t?.close());
beforeEach(() => resetNotifyState(t.db));

const A = { car_device_id: fleet.A.car_device_id, car_data_id: fleet.A.car_data_id };
const B = { car_device_id: fleet.B.car_device_id, car_data_id: fleet.B.car_data_id };
/** A terminal fitted to no vehicle. */
const C = { car_device_id: 'device-group-c', car_data_id: '358409100000903' };

let seq = 7000;
const batch = (records: DeviceRecordInput[], s = ++seq): DeviceBatch => ({ seq: s, records });
const gps = (minute: number, lat = 35.6) => ({ type: 'gps' as const, time: at(minute), lat, lng: 139.7, speed: 30 });
/** One transaction at a time: the first batch goes alone, those arriving meanwhile share the next. */
const writer = (opts: ConstructorParameters<typeof GroupCommit>[1] = {}) =>
  new GroupCommit(t.db, { concurrency: 1, followers: [notificationFollower(PUBLIC_URL)], ...opts });

describe('group commit', () => {
  it('stores the batches of several terminals in one transaction, each answered as if alone', async () => {
    const published: TelemetryState[] = [];
    const w = writer({ committed: async (states) => void published.push(...states) });
    const before = { a: await count(t.db, 'gps_logs', A.car_data_id), b: await count(t.db, 'gps_logs', B.car_data_id) };
    const first = batch([gps(1)]);
    const [r0, r1, r2, r3] = await Promise.all([
      w.ingest(C, batch([gps(1)])),
      w.ingest(A, first),
      w.ingest(B, batch([gps(1, 35.7), gps(2, 35.8), { type: 'gps', time: at(2), lat: 135, lng: 139.7 } as never])),
      w.ingest(C, batch([])),
    ]);
    expect(w.stats).toEqual({ transactions: 2, batches: 4 });
    expect(r0!.response).toMatchObject({ accepted: 1, duplicate: false });
    expect(r1!.response).toMatchObject({ seq: first.seq, accepted: 1, rejected: [], duplicate: false, commands: [] });
    expect(r2!.response).toMatchObject({ accepted: 2, rejected: [{ index: 2 }], duplicate: false });
    expect(r3!.response).toMatchObject({ accepted: 0, duplicate: false });
    expect(r2!.state).toMatchObject({ car_data_id: B.car_data_id, lat: 35.8 });
    expect(await count(t.db, 'gps_logs', A.car_data_id)).toBe(before.a + 1);
    expect(await count(t.db, 'gps_logs', B.car_data_id)).toBe(before.b + 2);
    expect((await latest(t.db, B.car_data_id))?.lat).toBe(35.8);
    expect(published.map((s) => s.car_data_id).sort()).toEqual(
      [A.car_data_id, B.car_data_id, C.car_data_id, C.car_data_id].sort(),
    );

    // A repetition in a group stores nothing and gets its first answer.
    const [again, fresh] = await Promise.all([w.ingest(A, first), w.ingest(B, batch([gps(3)]))]);
    expect(again!.response).toMatchObject({ seq: first.seq, accepted: 1, duplicate: true });
    expect(again!.state).toBeNull();
    expect(fresh!.response).toMatchObject({ accepted: 1, duplicate: false });
    expect(await count(t.db, 'gps_logs', A.car_data_id)).toBe(before.a + 1);
  });

  it("writes one terminal's batches in the order they came, never two in one transaction", async () => {
    const w = writer({ concurrency: 3 });
    await Promise.all([
      w.ingest(C, batch([{ type: 'engine', time: at(10), running: 'on' }])),
      w.ingest(C, batch([{ type: 'gps', time: at(11), lat: 35.6, lng: 139.7, speed: 0 }])),
      w.ingest(C, batch([{ type: 'gps', time: at(12), lat: 35.6, lng: 139.7, speed: 40 }])),
    ]);
    expect(w.stats).toEqual({ transactions: 3, batches: 3 });
    const ids = await t.db
      .selectFrom('gps_logs')
      .select(['id', 'recorded_at'])
      .where('car_data_id', '=', C.car_data_id)
      .orderBy('id')
      .execute();
    expect(ids.map((r) => new Date(r.recorded_at).toISOString()).slice(-2)).toEqual([at(11), at(12)]);
    const motion = await t.db
      .selectFrom('vehicle_motion')
      .selectAll()
      .where('car_data_id', '=', C.car_data_id)
      .executeTakeFirstOrThrow();
    expect(new Date(motion.moved_at).toISOString()).toBe(at(12));
    expect(motion.idle_since).toBeNull();
  });

  it('judges every batch of a group for its own vehicle and subscribers', async () => {
    await subscribe(t.db, accounts.superAdmin.account_id, { connect_error: null });
    await subscribe(t.db, accounts.staffA.account_id, { connect_error: null, sensor_error: null });
    const w = writer();
    const lost = (minute: number) => ({
      type: 'connection' as const,
      time: at(minute),
      state: 'disconnected' as const,
    });
    await Promise.all([
      w.ingest(C, batch([gps(20)])),
      w.ingest(A, batch([lost(20)])),
      w.ingest(B, batch([lost(20), { type: 'error', time: at(20), error_type: 'sensor', status_code: 1001 }])),
    ]);
    expect(w.stats.transactions).toBe(2);
    const events = await t.db
      .selectFrom('notification_events')
      .select(['account_id', 'car_id', 'item'])
      .orderBy('account_id')
      .orderBy('car_id')
      .execute();
    expect(events).toEqual([
      { account_id: accounts.staffA.account_id, car_id: fleet.A.car_id, item: 'connect_error' },
      { account_id: accounts.superAdmin.account_id, car_id: fleet.A.car_id, item: 'connect_error' },
      { account_id: accounts.superAdmin.account_id, car_id: fleet.B.car_id, item: 'connect_error' },
    ]);
  });

  it("hands each terminal its own commands in a group's reply", async () => {
    const id = await reserveCommand(t.db, {
      car_data_id: B.car_data_id,
      cmd_type: 'req_client_update',
      cmd_info: {},
      created_by: accounts.superAdmin.account_id,
    });
    const w = writer();
    const [, a, b] = await Promise.all([w.ingest(C, batch([])), w.ingest(A, batch([])), w.ingest(B, batch([]))]);
    expect(w.stats.transactions).toBe(2);
    expect(a!.response.commands).toEqual([]);
    expect(b!.response.commands.map((c) => c.id)).toEqual([id]);
    const row = await t.db
      .selectFrom('reserved_commands')
      .select('state')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row.state).toBe(2);
  });

  it('retries each batch of a failed group alone: one failing batch fails alone and leaves nothing behind', async () => {
    // A database-side failure for one terminal only.
    await sql`CREATE FUNCTION group_commit_fail() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF NEW.car_data_id = ${sql.lit(C.car_data_id)} THEN RAISE EXCEPTION 'refused for the test'; END IF; RETURN NEW; END $$`.execute(
      t.db,
    );
    await sql`CREATE TRIGGER group_commit_fail BEFORE INSERT ON gps_logs FOR EACH ROW EXECUTE FUNCTION group_commit_fail()`.execute(
      t.db,
    );
    try {
      const w = writer();
      const bad = batch([gps(30)]);
      const receipts = await count(t.db, 'device_batches', C.car_data_id);
      const results = await Promise.allSettled([
        w.ingest(B, batch([])),
        w.ingest(A, batch([gps(30)])),
        w.ingest(C, bad),
        w.ingest(B, batch([gps(30)])),
      ]);
      expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
      expect(await count(t.db, 'device_batches', C.car_data_id)).toBe(receipts);
      expect(new Date((await latest(t.db, A.car_data_id))!.position_at!).toISOString()).toBe(at(30));
    } finally {
      await sql`DROP TRIGGER group_commit_fail ON gps_logs`.execute(t.db);
      await sql`DROP FUNCTION group_commit_fail()`.execute(t.db);
    }
  });
});

describe('vehicles someone may be told about (subscriberExists)', () => {
  /** Per vehicle: the statement's answer, and whether findSubscribers finds anyone who sees it. */
  const both = async () => {
    const { rows } = await sql<{ car_id: string; company_id: string | null; watched: boolean }>`
      SELECT c.car_id, c.company_id, ${subscriberExists(TELEMETRY_ITEMS, 'c.company_id')} AS watched FROM cars AS c ORDER BY c.car_id`.execute(
      t.db,
    );
    const subs = await findSubscribers(t.db, TELEMETRY_ITEMS);
    return rows.map((r) => ({
      car: r.car_id,
      watched: r.watched,
      found: subs.some((s) => seesCompany(s, r.company_id)),
    }));
  };
  const watched = async () => {
    const rows = await both();
    for (const r of rows) expect(r.watched, r.car).toBe(r.found);
    return rows.filter((r) => r.watched).map((r) => r.car);
  };

  it('agrees with findSubscribers, so skipping the others loses no notification', async () => {
    expect(await watched()).toEqual([]);
    await subscribe(t.db, accounts.staffA.account_id, { device_lost: 60, car_negrected: 7 });
    expect(await watched()).toEqual([]);
    await subscribe(t.db, accounts.staffA.account_id, { vibration: 2 });
    expect(await watched()).toEqual([fleet.A.car_id]);
    await subscribe(t.db, accounts.adminB.account_id, { warn_area: null });
    expect(await watched()).toEqual([fleet.A.car_id, fleet.B.car_id]);
    await t.db
      .updateTable('accounts')
      .set({ is_delete: true })
      .where('account_id', 'in', [accounts.staffA.account_id, accounts.adminB.account_id])
      .execute();
    try {
      expect(await watched()).toEqual([]);
      await subscribe(t.db, accounts.superAdmin.account_id, { obd2_error: null });
      expect(await watched()).toEqual([fleet.A.car_id, fleet.B.car_id]);
    } finally {
      await t.db
        .updateTable('accounts')
        .set({ is_delete: false })
        .where('account_id', 'in', [accounts.staffA.account_id, accounts.adminB.account_id])
        .execute();
    }
  });
});

describe('coalesce', () => {
  it('answers lookups arriving together with one query, each with its own answer, nothing cached', async () => {
    const calls: string[][] = [];
    const lookup = coalesce(
      async (keys: string[]) => {
        calls.push(keys);
        return new Map(keys.filter((k) => k !== 'none').map((k) => [k, k.toUpperCase()]));
      },
      { concurrency: 1 },
    );
    expect(await Promise.all(['a', 'b', 'a', 'none', 'c'].map((k) => lookup(k)))).toEqual([
      'A',
      'B',
      'A',
      undefined,
      'C',
    ]);
    expect(calls).toEqual([['a'], ['b', 'a', 'none', 'c']]);
    expect(await lookup('a')).toBe('A');
    expect(calls).toHaveLength(3);
  });

  it('fails the lookups of a failed query and goes on', async () => {
    let fail = true;
    const lookup = coalesce(async (keys: string[]) => {
      if (fail) throw new Error('down');
      return new Map(keys.map((k) => [k, 1]));
    });
    await expect(lookup('x')).rejects.toThrow('down');
    fail = false;
    expect(await lookup('x')).toBe(1);
  });
});
