import type { DeviceRecord, RecordOf, RejectedRecord } from '@fleet/contract';
import type { Insertable } from 'kysely';
import type { Db } from '../db/database.js';
import type { EngineLogsTable } from '../db/schema.js';

/**
 * Claims (IMEI, seq) for this batch. False when the batch was received
 * before: a concurrent retry waits here for the first one to commit.
 */
export async function claimBatch(db: Db, carDataId: string, seq: number, accepted: number, rejected: RejectedRecord[]): Promise<boolean> {
  const row = await db
    .insertInto('device_batches')
    .values({ car_data_id: carDataId, seq, accepted, rejected: JSON.stringify(rejected) })
    .onConflict((oc) => oc.columns(['car_data_id', 'seq']).doNothing())
    .returning('seq')
    .executeTakeFirst();
  return !!row;
}

export async function findBatch(db: Db, carDataId: string, seq: number) {
  const row = await db
    .selectFrom('device_batches')
    .select(['accepted', 'rejected'])
    .where('car_data_id', '=', carDataId)
    .where('seq', '=', seq)
    .executeTakeFirstOrThrow();
  return { accepted: row.accepted, rejected: (typeof row.rejected === 'string' ? JSON.parse(row.rejected) : row.rejected) as RejectedRecord[] };
}

export async function setBatchOutcome(db: Db, carDataId: string, seq: number, accepted: number, rejected: RejectedRecord[]) {
  await db
    .updateTable('device_batches')
    .set({ accepted, rejected: JSON.stringify(rejected) })
    .where('car_data_id', '=', carDataId)
    .where('seq', '=', seq)
    .execute();
}

/** Rows per INSERT: far below PostgreSQL's 65,535 parameters for every log table. */
const CHUNK = 1000;

async function insertChunked<T>(rows: T[], insert: (chunk: T[]) => Promise<unknown>) {
  for (let i = 0; i < rows.length; i += CHUNK) await insert(rows.slice(i, i + CHUNK));
}

const of = <T extends DeviceRecord['type']>(records: readonly DeviceRecord[], type: T) =>
  records.filter((r): r is RecordOf<T> => r.type === type);

/** Stores the records, one multi-row INSERT per log table (command results are not logs of their own). */
export async function insertLogs(db: Db, carDataId: string, records: readonly DeviceRecord[], extraEngineRows: Insertable<EngineLogsTable>[] = []) {
  const at = (r: DeviceRecord) => ({ car_data_id: carDataId, recorded_at: r.time });
  const gps = of(records, 'gps').map((r) => ({
    ...at(r), lat: r.lat, lng: r.lng, speed: r.speed ?? null, heading: r.heading ?? null, satellites: r.satellites ?? null, accuracy: r.accuracy ?? null,
  }));
  const engine: Insertable<EngineLogsTable>[] = [
    ...of(records, 'engine').map((r) => ({ ...at(r), running: r.running ?? null, engine_line: r.engine_line ?? null, command: null, command_id: null, account_id: null })),
    ...extraEngineRows,
  ];
  const connection = of(records, 'connection').map((r) => ({ ...at(r), state: r.state }));
  const battery = of(records, 'battery').map((r) => ({ ...at(r), voltage: r.voltage ?? null, percentage: r.percentage ?? null }));
  const sensor = of(records, 'sensor').map((r) => ({ ...at(r), vibration: r.vibration ?? null, readings: JSON.stringify(r.readings) }));
  const obd2 = of(records, 'obd2').map((r) => ({ ...at(r), pids: JSON.stringify(r.pids) }));
  const error = of(records, 'error').map((r) => ({ ...at(r), error_type: r.error_type, status_code: r.status_code, detail: r.detail }));

  await insertChunked(gps, (c) => db.insertInto('gps_logs').values(c).execute());
  await insertChunked(engine, (c) => db.insertInto('engine_logs').values(c).execute());
  await insertChunked(connection, (c) => db.insertInto('connection_logs').values(c).execute());
  await insertChunked(battery, (c) => db.insertInto('battery_logs').values(c).execute());
  await insertChunked(sensor, (c) => db.insertInto('sensor_logs').values(c).execute());
  await insertChunked(obd2, (c) => db.insertInto('obd2_logs').values(c).execute());
  await insertChunked(error, (c) => db.insertInto('error_logs').values(c).execute());
}
