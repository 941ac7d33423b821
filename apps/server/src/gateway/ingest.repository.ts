import type { DeviceCommand, DeviceRecord, RecordOf, RejectedRecord } from '@fleet/contract';
import { sql, type Insertable, type RawBuilder, type Selectable } from 'kysely';
import type { Db } from '../db/database.js';
import type { DeviceLatestStateTable, EngineLogsTable } from '../db/schema.js';
import {
  latestStateUpsertFrom,
  liveOwner,
  toLiveRecord,
  type LiveRecord,
} from '../telemetry/latest-state.repository.js';
import { motionFromRow } from '../notify/motion.repository.js';
import type { Motion } from '../notify/motion.js';
import type { NotifyCar } from '../notify/notification.repository.js';
import { subscriberExists } from '../notify/settings.repository.js';
import { TELEMETRY_ITEMS } from '../notify/evaluate-batch.js';
import { pendingCommandCtes, toDeviceCommand, type CommandRow } from '../commands/terminal-commands.repository.js';
import { deviceStateOf, type LatestPatch } from '../telemetry/latest-patch.js';

/**
 * Writes of the gateway. Batches are stored by ONE statement, one batch or
 * many of different terminals at once (group commit): the (IMEI, seq) claims,
 * a multi-row INSERT per log table and the latest-state merge as
 * data-modifying CTEs, the last two only for the batches whose claim took. One
 * round trip, atomic on its own, and a repeated batch (the claim finds its
 * receipt) writes nothing. Rows travel as one array per column through
 * unnest(), so any number of records is a handful of parameters and one plan.
 */
const json = (v: unknown) => JSON.stringify(v);

interface Row<R> {
  imei: string;
  r: R;
}
type Column<R> = readonly [name: string, type: string, value: (r: R) => unknown];

/** Rows of one record type from every batch, in the terminals' order; only those of claimed batches are kept. */
function logInsert<R extends DeviceRecord>(
  table: string,
  rows: readonly Row<R>[],
  columns: readonly Column<R>[],
): RawBuilder<unknown> {
  const all: Column<Row<R>>[] = [
    ['car_data_id', 'text', (x) => x.imei],
    ['recorded_at', 'timestamptz', (x) => x.r.time],
    ...columns.map(([name, type, value]): Column<Row<R>> => [name, type, (x) => value(x.r)]),
  ];
  const names = sql.raw(all.map(([name]) => name).join(', '));
  const arrays = all.map(([, type, value]) => sql`${rows.map((x) => value(x) ?? null)}::${sql.raw(type)}[]`);
  // ORDER BY the position: ids follow the terminal's order, as they did batch by batch.
  return sql`INSERT INTO ${sql.table(table)} (${names})
    SELECT ${names} FROM unnest(${sql.join(arrays)}) WITH ORDINALITY AS u(${names}, n)
    WHERE u.car_data_id IN (SELECT car_data_id FROM claim) ORDER BY u.n`;
}

function logInserts(batches: readonly NewBatch[]): RawBuilder<unknown>[] {
  const of = <T extends DeviceRecord['type']>(type: T): Row<RecordOf<T>>[] =>
    batches.flatMap((b) =>
      b.records.filter((r): r is RecordOf<T> => r.type === type).map((r) => ({ imei: b.imei, r })),
    );
  const out: RawBuilder<unknown>[] = [];
  const add = <R extends DeviceRecord>(table: string, rows: Row<R>[], columns: Column<R>[]) => {
    if (rows.length) out.push(logInsert(table, rows, columns));
  };
  add('gps_logs', of('gps'), [
    ['lat', 'float8', (r) => r.lat],
    ['lng', 'float8', (r) => r.lng],
    ['speed', 'float8', (r) => r.speed],
    ['heading', 'float8', (r) => r.heading],
    ['satellites', 'int', (r) => r.satellites],
    ['accuracy', 'float8', (r) => r.accuracy],
  ]);
  add('engine_logs', of('engine'), [
    ['running', 'text', (r) => r.running],
    ['engine_line', 'text', (r) => r.engine_line],
  ]);
  add('connection_logs', of('connection'), [['state', 'text', (r) => r.state]]);
  add('battery_logs', of('battery'), [
    ['voltage', 'float8', (r) => r.voltage],
    ['percentage', 'float8', (r) => r.percentage],
  ]);
  add('sensor_logs', of('sensor'), [
    ['vibration', 'float8', (r) => r.vibration],
    ['readings', 'jsonb', (r) => json(r.readings)],
  ]);
  add('obd2_logs', of('obd2'), [['pids', 'jsonb', (r) => json(r.pids)]]);
  add('error_logs', of('error'), [
    ['error_type', 'text', (r) => r.error_type],
    ['status_code', 'int', (r) => r.status_code],
    ['detail', 'text', (r) => r.detail],
  ]);
  return out;
}

/** Each batch's latest-state patch as a row, for the claimed batches only, in IMEI order (the lock order). */
function patchRows(batches: readonly NewBatch[]): RawBuilder<unknown> {
  const columns: Column<LatestPatch>[] = [
    ['recorded_at', 'timestamptz', (p) => p.recorded_at],
    ['lat', 'float8', (p) => p.position?.value.lat],
    ['lng', 'float8', (p) => p.position?.value.lng],
    ['speed', 'float8', (p) => p.position?.value.speed],
    ['heading', 'float8', (p) => p.position?.value.heading],
    ['position_at', 'timestamptz', (p) => p.position?.at],
    ['engine_running', 'text', (p) => p.engine_running?.value],
    ['engine_running_at', 'timestamptz', (p) => p.engine_running?.at],
    ['engine_line', 'text', (p) => p.engine_line?.value],
    ['engine_line_at', 'timestamptz', (p) => p.engine_line?.at],
    ['connection', 'text', (p) => p.connection?.value],
    ['connection_at', 'timestamptz', (p) => p.connection?.at],
    ['device_state', 'int', (p) => deviceStateOf(p)],
    ['device_state_at', 'timestamptz', (p) => p.device_state?.at],
    ['battery_voltage', 'float8', (p) => p.battery?.value.voltage],
    ['battery_percentage', 'float8', (p) => p.battery?.value.percentage],
    ['battery_at', 'timestamptz', (p) => p.battery?.at],
  ];
  const names = sql.raw(['car_data_id', ...columns.map(([name]) => name)].join(', '));
  const arrays = [
    sql`${batches.map((b) => b.imei)}::text[]`,
    ...columns.map(([, type, value]) => sql`${batches.map((b) => value(b.patch) ?? null)}::${sql.raw(type)}[]`),
  ];
  return sql`SELECT ${names}, now() FROM unnest(${sql.join(arrays)}) AS p(${names})
    WHERE p.car_data_id IN (SELECT car_data_id FROM claim) ORDER BY p.car_data_id`;
}

export interface NewBatch {
  imei: string;
  seq: number;
  accepted: number;
  rejected: RejectedRecord[];
  /** Records to log (command results are not logs of their own). */
  records: readonly DeviceRecord[];
  patch: LatestPatch;
}

export interface StoredBatch {
  /** False when the (IMEI, seq) had been stored before: nothing was written. */
  claimed: boolean;
  /** The merged latest state of the terminal with its owner now (for the live push), for a claimed batch. */
  state: LiveRecord | null;
}

/**
 * The CTEs storing the batches: claim, log0…, merged (the merged latest states of the claimed ones).
 * The statement reads each state's owner (liveOwner) too: a push is judged by who had the terminal
 * when it was stored, not by what a stream read when it opened.
 */
function storeCtes(batches: readonly NewBatch[]): RawBuilder<unknown>[] {
  if (new Set(batches.map((b) => b.imei)).size !== batches.length)
    throw new Error('storeBatches: at most one batch per terminal');
  return [
    sql`claim AS (INSERT INTO device_batches (car_data_id, seq, accepted, rejected)
      SELECT * FROM unnest(${batches.map((b) => b.imei)}::text[], ${batches.map((b) => b.seq)}::int8[],
        ${batches.map((b) => b.accepted)}::int[], ${batches.map((b) => json(b.rejected))}::jsonb[])
      ON CONFLICT (car_data_id, seq) DO NOTHING RETURNING car_data_id)`,
    ...logInserts(batches).map((insert, i) => sql`${sql.raw(`log${i}`)} AS (${insert})`),
    sql`merged AS (${latestStateUpsertFrom(patchRows(batches))} RETURNING *)`,
  ];
}

/**
 * Stores each batch unless its (IMEI, seq) was stored before, all in one
 * statement; at most one batch per terminal. Answers in the order given.
 */
export async function storeBatches(db: Db, batches: readonly NewBatch[]): Promise<StoredBatch[]> {
  if (batches.length === 0) return [];
  const { rows } = await sql<Selectable<DeviceLatestStateTable> & { claimed_id: string }>`
    WITH ${sql.join(storeCtes(batches))}
    SELECT c.car_data_id AS claimed_id, m.*, o.* FROM claim AS c LEFT JOIN merged AS m ON m.car_data_id = c.car_data_id
      LEFT JOIN LATERAL (${liveOwner(sql`c.car_data_id`)}) AS o ON true`.execute(db);
  const merged = new Map(rows.map((r) => [r.claimed_id, r]));
  return batches.map((b) => {
    const row = merged.get(b.imei);
    return row ? { claimed: true, state: toLiveRecord(row) } : { claimed: false, state: null };
  });
}

export interface StoredAndRead extends StoredBatch {
  /** The terminal's commands (takePendingCommands). */
  commands: DeviceCommand[];
  /** Its motion state before this batch, locked until the transaction ends (with `judge`). */
  motion: Motion | null;
  /** Its live vehicles, each saying whether anyone could be told about it (with `judge`). */
  cars: (NotifyCar & { watched: boolean })[];
}

const parse = <T>(v: unknown): T => (typeof v === 'string' ? JSON.parse(v) : v) as T;

/**
 * storeBatches plus, in the same statement, what the gateway needs next: the
 * commands of every terminal (as takePendingCommands, fetched ones move to
 * resultWait), and with `judge` the terminals' motion states (locked FOR
 * UPDATE, IMEI order) and live vehicles, each with whether any account could
 * be told about it. One round trip instead of five.
 */
export async function storeAndRead(
  db: Db,
  batches: readonly NewBatch[],
  opts: { judge: boolean },
): Promise<StoredAndRead[]> {
  if (batches.length === 0) return [];
  const ids = sql`${batches.map((b) => b.imei)}::text[]`;
  const ctes = [
    ...storeCtes(batches),
    ...pendingCommandCtes(ids),
    ...(opts.judge
      ? [
          sql`motion AS MATERIALIZED (SELECT * FROM vehicle_motion WHERE car_data_id = ANY(${ids}) ORDER BY car_data_id FOR UPDATE)`,
          sql`vehicles AS (SELECT v.car_id, v.car_number, v.company_id, v.car_data_id, v.lat_min, v.lat_max, v.lng_min, v.lng_max,
              ${subscriberExists(TELEMETRY_ITEMS, 'v.company_id')} AS watched
            FROM cars AS v WHERE v.car_data_id = ANY(${ids}) AND v.is_delete = false)`,
        ]
      : []),
  ];
  const judged = opts.judge
    ? sql`(SELECT to_jsonb(x) FROM motion AS x WHERE x.car_data_id = i.imei) AS motion,
        (SELECT jsonb_agg(to_jsonb(x) ORDER BY x.car_id) FROM vehicles AS x WHERE x.car_data_id = i.imei) AS cars`
    : sql`NULL AS motion, NULL AS cars`;
  const { rows } = await sql<{
    imei: string;
    claimed: boolean;
    state: unknown;
    owner_company_id: string | null;
    owner_car_id: string | null;
    period_started_at: Date | null;
    commands: unknown;
    motion: unknown;
    cars: unknown;
  }>`
    WITH ${sql.join(ctes)}
    SELECT i.imei, c.car_data_id IS NOT NULL AS claimed, to_jsonb(m) AS state, o.*,
      (SELECT jsonb_agg(to_jsonb(x) ORDER BY x.id) FROM pending AS x WHERE x.car_data_id = i.imei) AS commands,
      ${judged}
    FROM unnest(${ids}) AS i(imei)
    LEFT JOIN claim AS c ON c.car_data_id = i.imei
    LEFT JOIN merged AS m ON m.car_data_id = i.imei
    LEFT JOIN LATERAL (${liveOwner(sql`i.imei`)}) AS o ON true`.execute(db);
  const byImei = new Map(rows.map((r) => [r.imei, r]));
  return batches.map((b) => {
    const r = byImei.get(b.imei)!;
    const { owner_company_id, owner_car_id, period_started_at } = r;
    const state =
      r.claimed && r.state
        ? toLiveRecord({
            ...parse<Selectable<DeviceLatestStateTable>>(r.state),
            owner_company_id,
            owner_car_id,
            period_started_at,
          })
        : null;
    const motion = r.motion ? motionFromRow(parse<Parameters<typeof motionFromRow>[0]>(r.motion)) : null;
    return {
      claimed: r.claimed,
      state,
      commands: r.commands ? parse<CommandRow[]>(r.commands).map(toDeviceCommand) : [],
      motion,
      cars: r.cars ? parse<(NotifyCar & { watched: boolean })[]>(r.cars) : [],
    };
  });
}

/** Stores one batch unless its (IMEI, seq) was stored before; returns whether it did and the merged state. */
export async function storeBatch(db: Db, b: NewBatch): Promise<StoredBatch> {
  return (await storeBatches(db, [b]))[0]!;
}

/** The first answer to a batch, for its repetitions. */
export async function findBatch(db: Db, carDataId: string, seq: number) {
  const row = await db
    .selectFrom('device_batches')
    .select(['accepted', 'rejected'])
    .where('car_data_id', '=', carDataId)
    .where('seq', '=', seq)
    .executeTakeFirstOrThrow();
  return {
    accepted: row.accepted,
    rejected: (typeof row.rejected === 'string' ? JSON.parse(row.rejected) : row.rejected) as RejectedRecord[],
  };
}

export async function setBatchOutcome(
  db: Db,
  carDataId: string,
  seq: number,
  accepted: number,
  rejected: RejectedRecord[],
) {
  await db
    .updateTable('device_batches')
    .set({ accepted, rejected: JSON.stringify(rejected) })
    .where('car_data_id', '=', carDataId)
    .where('seq', '=', seq)
    .execute();
}

/** Engine log rows of executed commands (few: one per command result). */
export async function insertEngineRows(db: Db, rows: Insertable<EngineLogsTable>[]) {
  if (rows.length) await db.insertInto('engine_logs').values(rows).execute();
}

/** Drops batch receipts older than `days`, a slice at a time so no lock is held long. Returns how many went. */
export async function pruneBatchReceipts(db: Db, days: number, slice = 10_000): Promise<number> {
  let total = 0;
  for (let round = 0; round < 100; round++) {
    const result = await sql`DELETE FROM device_batches WHERE ctid IN (
      SELECT ctid FROM device_batches WHERE received_at < now() - make_interval(days => ${days}) LIMIT ${slice})`.execute(
      db,
    );
    const n = Number(result.numAffectedRows ?? 0);
    total += n;
    if (n < slice) break;
  }
  return total;
}
