import type { DeviceBatch, DeviceRecordInput } from '@fleet/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { GroupCommit } from '../src/gateway/group-commit.js';
import { ingestBatch } from '../src/gateway/ingest.service.js';
import { createTestApp, fleet, seedFixtures, type TestApp } from './helper.js';
import { PUBLIC_URL } from './notify-support.js';
import { at, count, latest } from './telemetry-support.js';
import { notificationFollower } from '../src/notify/ingest-follower.js';

/**
 * How a group's log rows are written (issue #19): on PostgreSQL one COPY per
 * log table in the group's transaction, after the claim; on PGlite one unnest
 * INSERT per table inside the claim's statement. Either way a repeated batch
 * writes nothing, a failure anywhere in the group writes nothing of it, and
 * no batch is answered before its transaction committed.
 */
let t: TestApp;
const onPostgres = inject('databaseUrl') !== '';
const LOGS = [
  'gps_logs',
  'engine_logs',
  'connection_logs',
  'battery_logs',
  'sensor_logs',
  'obd2_logs',
  'error_logs',
] as const;

beforeAll(async () => {
  t = await createTestApp();
  await seedFixtures(t.db);
});
afterAll(() => t?.close());

const A = { car_device_id: fleet.A.car_device_id, car_data_id: fleet.A.car_data_id };
const B = { car_device_id: fleet.B.car_device_id, car_data_id: fleet.B.car_data_id };
const C = { car_device_id: 'device-copy-c', car_data_id: '358409100000913' };
const D = { car_device_id: 'device-copy-d', car_data_id: '358409100000914' };

let seq = 90_000;
const batch = (records: DeviceRecordInput[], s = ++seq): DeviceBatch => ({ seq: s, records });
const writer = () => new GroupCommit(t.db, { concurrency: 1, followers: [notificationFollower(PUBLIC_URL)] });

/** Values COPY's text format has to escape or spell out (tab, LF, CR, backslash, "\N", NULL) and every column type. */
const awkward = (minute: number): DeviceRecordInput[] => [
  { type: 'gps', time: at(minute), lat: -33.8688, lng: 151.2093, speed: null, heading: 359.9, satellites: 0 },
  { type: 'gps', time: at(minute, 1), lat: 35.1, lng: 139.1, speed: 0.1, heading: null, accuracy: 1e-7 },
  { type: 'engine', time: at(minute), running: null, engine_line: 'disconnected' },
  { type: 'connection', time: at(minute), state: 'connected' },
  { type: 'battery', time: at(minute), voltage: null, percentage: 55.5 },
  {
    type: 'sensor',
    time: at(minute),
    vibration: 0.3,
    readings: { 'a\tb': 'x\\y\n\r', '\\N': '\\N', 日本語: '😀 "引用" \\t', n: -0.000001 },
  },
  { type: 'obd2', time: at(minute), pids: { rpm: 1234.5, deep: { list: [1, 'two\\\n', null] } } },
  {
    type: 'error',
    time: at(minute),
    error_type: 'gps',
    status_code: 1002,
    detail: 'tab\there\nnew line\r\\N back\\slash "q" 日本語',
  },
];

/** A terminal's rows of every log table, without the id and IMEI, oldest first. */
async function rowsOf(imei: string) {
  const out: Record<string, unknown[]> = {};
  for (const table of LOGS) {
    const { rows } = await sql<Record<string, unknown>>`SELECT * FROM ${sql.table(table)}
      WHERE car_data_id = ${imei} ORDER BY recorded_at, id`.execute(t.db);
    out[table] = rows.map(({ id: _id, car_data_id: _imei, ...rest }) => rest);
  }
  return out;
}

/** Runs `f` with a trigger on `table` that refuses `imei`'s rows (deferred: at COMMIT). */
async function refusing<T>(table: string, imei: string, f: () => Promise<T>, deferred = false): Promise<T> {
  await sql`CREATE FUNCTION copy_test_refuse() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN IF NEW.car_data_id = ${sql.lit(imei)} THEN RAISE EXCEPTION 'refused for the test'; END IF; RETURN NEW; END $$`.execute(
    t.db,
  );
  await (
    deferred
      ? sql`CREATE CONSTRAINT TRIGGER copy_test_refuse AFTER INSERT ON ${sql.table(table)}
        DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION copy_test_refuse()`
      : sql`CREATE TRIGGER copy_test_refuse BEFORE INSERT ON ${sql.table(table)}
        FOR EACH ROW EXECUTE FUNCTION copy_test_refuse()`
  ).execute(t.db);
  try {
    return await f();
  } finally {
    await sql`DROP TRIGGER copy_test_refuse ON ${sql.table(table)}`.execute(t.db);
    await sql`DROP FUNCTION copy_test_refuse()`.execute(t.db);
  }
}

describe('a group’s log rows', () => {
  it('go in with one statement per log table: COPY on PostgreSQL, one INSERT on PGlite', async () => {
    // Every statement writing a log table, as the server saw it.
    await sql`CREATE TABLE copy_test_statements (tbl text, query text)`.execute(t.db);
    await sql`CREATE FUNCTION copy_test_seen() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN INSERT INTO copy_test_statements VALUES (TG_TABLE_NAME, current_query()); RETURN NULL; END $$`.execute(
      t.db,
    );
    for (const table of LOGS)
      await sql`CREATE TRIGGER copy_test_seen AFTER INSERT ON ${sql.table(table)}
        FOR EACH STATEMENT EXECUTE FUNCTION copy_test_seen()`.execute(t.db);
    try {
      const w = writer();
      const [first, ...group] = await Promise.all([
        w.ingest(A, batch([{ type: 'gps', time: at(1), lat: 35.6, lng: 139.7 }])),
        w.ingest(B, batch(awkward(1))),
        w.ingest(C, batch(awkward(1))),
        w.ingest(D, batch(awkward(1))),
      ]);
      expect(w.stats).toEqual({ transactions: 2, batches: 4 });
      expect(first!.response.accepted).toBe(1);
      expect(group.map((o) => o!.response.accepted)).toEqual([8, 8, 8]);
      const { rows } = await sql<{ tbl: string; query: string }>`SELECT tbl, query FROM copy_test_statements`.execute(
        t.db,
      );
      // The first transaction wrote gps_logs once; the second (three terminals) each table once.
      const per = Object.fromEntries(LOGS.map((table) => [table, rows.filter((r) => r.tbl === table)]));
      expect(per.gps_logs).toHaveLength(2);
      for (const table of LOGS.filter((x) => x !== 'gps_logs')) expect(per[table], table).toHaveLength(1);
      for (const r of rows) {
        if (onPostgres)
          expect(r.query).toMatch(new RegExp(`^COPY ${r.tbl} \\(car_data_id, recorded_at, .*\\) FROM STDIN$`));
        else expect(r.query).toMatch(/^\s*WITH claim AS/);
      }
      expect(await count(t.db, 'gps_logs', C.car_data_id)).toBe(2);
    } finally {
      for (const table of LOGS) await sql`DROP TRIGGER copy_test_seen ON ${sql.table(table)}`.execute(t.db);
      await sql`DROP FUNCTION copy_test_seen()`.execute(t.db);
      await sql`DROP TABLE copy_test_statements`.execute(t.db);
    }
  });

  it('hold exactly what a batch stored alone holds, awkward text, JSON and NULLs included', async () => {
    const w = writer();
    // In a group (COPY on PostgreSQL) …
    await Promise.all([w.ingest(C, batch(awkward(10))), w.ingest(D, batch([]))]);
    // … and alone, with command results' path (one statement, unnest).
    const alone = await ingestBatch(t.db, B, batch(awkward(10)));
    expect(alone.response.accepted).toBe(8);
    const grouped = await rowsOf(C.car_data_id);
    const single = await rowsOf(B.car_data_id);
    for (const table of LOGS) {
      const inMinute = (rows: unknown[]) =>
        rows.filter((r) => new Date((r as { recorded_at: Date }).recorded_at).toISOString() >= at(10));
      expect(inMinute(grouped[table]!), table).toEqual(inMinute(single[table]!));
      expect(inMinute(grouped[table]!).length, table).toBeGreaterThan(0);
    }
    const error = grouped.error_logs!.at(-1) as { detail: string };
    expect(error.detail).toBe('tab\there\nnew line\r\\N back\\slash "q" 日本語');
    const sensor = grouped.sensor_logs!.at(-1) as { readings: unknown };
    const readings = typeof sensor.readings === 'string' ? JSON.parse(sensor.readings) : sensor.readings;
    expect(readings).toEqual({ 'a\tb': 'x\\y\n\r', '\\N': '\\N', 日本語: '😀 "引用" \\t', n: -0.000001 });
    const gps = grouped.gps_logs!.filter((r) => (r as { lat: number }).lat === -33.8688);
    expect(gps.at(-1)).toMatchObject({ speed: null, heading: expect.closeTo(359.9, 3), satellites: 0, accuracy: null });
  });

  it('are written once: a repeated batch in a group writes nothing again and gets its first answer', async () => {
    const w = writer();
    const repeated = batch([
      { type: 'gps', time: at(20), lat: 35.2, lng: 139.2 },
      { type: 'battery', time: at(20), voltage: 12.1 },
    ]);
    await w.ingest(C, repeated);
    const before = {
      gps: await count(t.db, 'gps_logs', C.car_data_id),
      d: await count(t.db, 'gps_logs', D.car_data_id),
    };
    const batteries = await count(t.db, 'battery_logs', C.car_data_id);
    const [again, other] = await Promise.all([
      w.ingest(C, repeated),
      w.ingest(D, batch([{ type: 'gps', time: at(20), lat: 35.3, lng: 139.3 }])),
    ]);
    expect(again!.response).toMatchObject({ seq: repeated.seq, accepted: 2, duplicate: true });
    expect(again!.state).toBeNull();
    expect(other!.response).toMatchObject({ accepted: 1, duplicate: false });
    expect(await count(t.db, 'gps_logs', C.car_data_id)).toBe(before.gps);
    expect(await count(t.db, 'battery_logs', C.car_data_id)).toBe(batteries);
    expect(await count(t.db, 'gps_logs', D.car_data_id)).toBe(before.d + 1);
  });

  it('of a group that fails in its last table leave nothing behind; the others are stored once, alone', async () => {
    const receipts = await count(t.db, 'device_batches', D.car_data_id);
    const before = {
      c: await count(t.db, 'gps_logs', C.car_data_id),
      d: await count(t.db, 'gps_logs', D.car_data_id),
    };
    const stateOfD = await latest(t.db, D.car_data_id);
    const w = writer();
    const records = (lat: number): DeviceRecordInput[] => [
      { type: 'gps', time: at(30), lat, lng: 139.4 },
      { type: 'gps', time: at(30, 1), lat, lng: 139.4 },
      { type: 'error', time: at(30), error_type: 'gps', status_code: 1002 },
    ];
    // gps_logs is written before error_logs: D's rows there are in when its error row fails the group.
    const results = await refusing('error_logs', D.car_data_id, () =>
      Promise.allSettled([
        w.ingest(A, batch([])),
        w.ingest(C, batch(records(35.41))),
        w.ingest(D, batch(records(35.42))),
      ]),
    );
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'rejected']);
    expect(await count(t.db, 'gps_logs', C.car_data_id)).toBe(before.c + 2);
    expect(await count(t.db, 'gps_logs', D.car_data_id)).toBe(before.d);
    expect(await count(t.db, 'device_batches', D.car_data_id)).toBe(receipts);
    expect(await latest(t.db, D.car_data_id)).toEqual(stateOfD);
  });

  it('are answered only once committed: a batch whose commit fails is refused and leaves nothing', async () => {
    const receipts = await count(t.db, 'device_batches', C.car_data_id);
    const gps = await count(t.db, 'gps_logs', C.car_data_id);
    const other = await count(t.db, 'gps_logs', D.car_data_id);
    const w = writer();
    const fix = (lat: number): DeviceRecordInput[] => [{ type: 'gps', time: at(40), lat, lng: 139.5 }];
    // The refusal comes at COMMIT, after every statement of the group succeeded.
    const results = await refusing(
      'gps_logs',
      C.car_data_id,
      () =>
        Promise.allSettled([
          w.ingest(A, batch([])),
          // Seen from another connection the moment it is answered: already committed.
          w.ingest(D, batch(fix(35.52))).then(async () => count(t.db, 'gps_logs', D.car_data_id)),
          w.ingest(C, batch(fix(35.51))),
        ]),
      true,
    );
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'rejected']);
    expect((results[1] as PromiseFulfilledResult<number>).value).toBe(other + 1);
    expect(await count(t.db, 'gps_logs', C.car_data_id)).toBe(gps);
    expect(await count(t.db, 'device_batches', C.car_data_id)).toBe(receipts);
  });
});
