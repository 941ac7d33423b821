import type { DeviceRecord, RecordOf, RejectedRecord, TelemetryState } from '@fleet/contract';
import { sql, type Insertable, type RawBuilder, type Selectable } from 'kysely';
import type { Db } from '../db/database.js';
import type { DeviceLatestStateTable, EngineLogsTable } from '../db/schema.js';
import { latestStateUpsert, toTelemetryState } from '../telemetry/latest-state.repository.js';
import type { LatestPatch } from './latest-patch.js';

/**
 * Writes of the gateway. A batch is ONE statement: the (IMEI, seq) claim, a
 * multi-row INSERT per log table and the latest-state merge as data-modifying
 * CTEs, each guarded by the claim. One round trip, atomic on its own, and a
 * repeated batch (the claim finds its receipt) writes nothing. Rows travel as
 * one array per column through unnest(), so any batch size is a handful of
 * parameters and the same plan.
 */
const of = <T extends DeviceRecord['type']>(records: readonly DeviceRecord[], type: T) =>
  records.filter((r): r is RecordOf<T> => r.type === type);
const col = <T, V>(rows: readonly T[], f: (r: T) => V | null | undefined) => rows.map((r) => f(r) ?? null);
const json = (v: unknown) => JSON.stringify(v);

function logInserts(imei: string, records: readonly DeviceRecord[]): RawBuilder<unknown>[] {
  const out: RawBuilder<unknown>[] = [];
  const times = (rows: readonly DeviceRecord[]) => sql`${col(rows, (r) => r.time)}::timestamptz[]`;
  const add = (table: string, columns: string, from: RawBuilder<unknown>) =>
    out.push(
      sql`INSERT INTO ${sql.table(table)} (car_data_id, recorded_at, ${sql.raw(columns)}) SELECT ${imei}::text, u.* FROM ${from} AS u`,
    );

  const gps = of(records, 'gps');
  if (gps.length)
    add(
      'gps_logs',
      'lat, lng, speed, heading, satellites, accuracy',
      sql`unnest(${times(gps)}, ${col(gps, (r) => r.lat)}::float8[], ${col(gps, (r) => r.lng)}::float8[], ${col(gps, (r) => r.speed)}::float8[],
        ${col(gps, (r) => r.heading)}::float8[], ${col(gps, (r) => r.satellites)}::int[], ${col(gps, (r) => r.accuracy)}::float8[])`,
    );
  const engine = of(records, 'engine');
  if (engine.length)
    add(
      'engine_logs',
      'running, engine_line',
      sql`unnest(${times(engine)}, ${col(engine, (r) => r.running)}::text[], ${col(engine, (r) => r.engine_line)}::text[])`,
    );
  const connection = of(records, 'connection');
  if (connection.length) add('connection_logs', 'state', sql`unnest(${times(connection)}, ${col(connection, (r) => r.state)}::text[])`);
  const battery = of(records, 'battery');
  if (battery.length)
    add(
      'battery_logs',
      'voltage, percentage',
      sql`unnest(${times(battery)}, ${col(battery, (r) => r.voltage)}::float8[], ${col(battery, (r) => r.percentage)}::float8[])`,
    );
  const sensor = of(records, 'sensor');
  if (sensor.length)
    add(
      'sensor_logs',
      'vibration, readings',
      sql`unnest(${times(sensor)}, ${col(sensor, (r) => r.vibration)}::float8[], ${col(sensor, (r) => json(r.readings))}::jsonb[])`,
    );
  const obd2 = of(records, 'obd2');
  if (obd2.length) add('obd2_logs', 'pids', sql`unnest(${times(obd2)}, ${col(obd2, (r) => json(r.pids))}::jsonb[])`);
  const error = of(records, 'error');
  if (error.length)
    add(
      'error_logs',
      'error_type, status_code, detail',
      sql`unnest(${times(error)}, ${col(error, (r) => r.error_type)}::text[], ${col(error, (r) => r.status_code)}::int[], ${col(error, (r) => r.detail)}::text[])`,
    );
  return out;
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

/** Stores a batch unless its (IMEI, seq) was stored before; returns whether it did and the merged state. */
export async function storeBatch(db: Db, b: NewBatch): Promise<{ claimed: boolean; state: TelemetryState | null }> {
  const guard = sql`WHERE EXISTS (SELECT 1 FROM claim)`;
  const ctes = [
    sql`claim AS (INSERT INTO device_batches (car_data_id, seq, accepted, rejected)
      VALUES (${b.imei}, ${b.seq}, ${b.accepted}, ${json(b.rejected)}::jsonb)
      ON CONFLICT (car_data_id, seq) DO NOTHING RETURNING seq)`,
    ...logInserts(b.imei, b.records).map((insert, i) => sql`${sql.raw(`log${i}`)} AS (${insert} ${guard})`),
    sql`merged AS (${latestStateUpsert(b.imei, b.patch, guard)} RETURNING *)`,
  ];
  const { rows } = await sql<Selectable<DeviceLatestStateTable> & { claimed: boolean }>`
    WITH ${sql.join(ctes)}
    SELECT EXISTS (SELECT 1 FROM claim) AS claimed, m.* FROM (SELECT 1) AS one LEFT JOIN merged AS m ON true`.execute(db);
  const row = rows[0]!;
  return { claimed: row.claimed, state: row.claimed ? toTelemetryState(row) : null };
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

export async function setBatchOutcome(db: Db, carDataId: string, seq: number, accepted: number, rejected: RejectedRecord[]) {
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
      SELECT ctid FROM device_batches WHERE received_at < now() - make_interval(days => ${days}) LIMIT ${slice})`.execute(db);
    const n = Number(result.numAffectedRows ?? 0);
    total += n;
    if (n < slice) break;
  }
  return total;
}
