import type { Db } from '../db/database.js';
import type { Motion } from './motion.js';

const date = (v: Date | string) => new Date(v);

/** The motion state of a terminal, locked for the rest of the transaction. */
export async function lockMotion(trx: Db, carDataId: string): Promise<Motion | null> {
  const r = await trx.selectFrom('vehicle_motion').selectAll().where('car_data_id', '=', carDataId).forUpdate().executeTakeFirst();
  if (!r) return null;
  return {
    moved_at: date(r.moved_at),
    anchor_lat: r.anchor_lat,
    anchor_lng: r.anchor_lng,
    engine_running: r.engine_running,
    idle_since: r.idle_since === null ? null : date(r.idle_since),
    last_record_at: date(r.last_record_at),
  };
}

export async function saveMotion(db: Db, carDataId: string, m: Motion): Promise<void> {
  await db
    .insertInto('vehicle_motion')
    .values({ car_data_id: carDataId, ...m })
    .onConflict((oc) => oc.column('car_data_id').doUpdateSet(m))
    .execute();
}
