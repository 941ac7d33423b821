import type { Db } from '../db/database.js';
import type { VehicleMotionTable } from '../db/schema.js';
import type { Motion } from './motion.js';

const date = (v: Date | string) => new Date(v);

/** A vehicle_motion row (also as JSON, times as strings) as a Motion. */
export function motionFromRow(r: Omit<VehicleMotionTable, 'car_data_id'>): Motion {
  return {
    moved_at: date(r.moved_at),
    anchor_lat: r.anchor_lat,
    anchor_lng: r.anchor_lng,
    engine_running: r.engine_running,
    idle_since: r.idle_since === null ? null : date(r.idle_since),
    last_record_at: date(r.last_record_at),
  };
}

/** The motion states of terminals, locked (in IMEI order) for the rest of the transaction. */
export async function lockMotions(trx: Db, carDataIds: readonly string[]): Promise<Map<string, Motion>> {
  if (carDataIds.length === 0) return new Map();
  const rows = await trx
    .selectFrom('vehicle_motion')
    .selectAll()
    .where('car_data_id', 'in', [...carDataIds])
    .orderBy('car_data_id')
    .forUpdate()
    .execute();
  return new Map(rows.map((r) => [r.car_data_id, motionFromRow(r)]));
}

/** Saves motion states, one statement for any number of terminals (each at most once). */
export async function saveMotions(db: Db, states: readonly ({ car_data_id: string } & Motion)[]): Promise<void> {
  if (states.length === 0) return;
  await db
    .insertInto('vehicle_motion')
    .values([...states].sort((a, b) => (a.car_data_id < b.car_data_id ? -1 : a.car_data_id > b.car_data_id ? 1 : 0)))
    .onConflict((oc) =>
      oc.column('car_data_id').doUpdateSet((eb) => ({
        moved_at: eb.ref('excluded.moved_at'),
        anchor_lat: eb.ref('excluded.anchor_lat'),
        anchor_lng: eb.ref('excluded.anchor_lng'),
        engine_running: eb.ref('excluded.engine_running'),
        idle_since: eb.ref('excluded.idle_since'),
        last_record_at: eb.ref('excluded.last_record_at'),
      })),
    )
    .execute();
}
