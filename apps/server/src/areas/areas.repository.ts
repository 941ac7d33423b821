import type { Area, AreaKind, AreaRow } from '@fleet/contract';
import type { Db } from '../db/database.js';
import { findLatestStateRow } from '../telemetry/latest-state.repository.js';

/**
 * A vehicle's areas: its own rectangle (available_data, the cars.lat_min..
 * lng_max columns) and its lists of available and forbidden areas (the areas
 * table, ordered by position).
 */
export interface NamedArea extends Area {
  name: string;
}

export async function findCar(db: Db, carId: string) {
  return db
    .selectFrom('cars')
    .select(['car_id', 'car_data_id', 'is_delete', 'lat_min', 'lat_max', 'lng_min', 'lng_max'])
    .where('car_id', '=', carId)
    .executeTakeFirst();
}
type CarAreas = NonNullable<Awaited<ReturnType<typeof findCar>>>;

/** available_data when all four bounds are set, else null. */
export const availableData = (c: Pick<CarAreas, 'lat_min' | 'lat_max' | 'lng_min' | 'lng_max'>): Area | null =>
  c.lat_min !== null && c.lat_max !== null && c.lng_min !== null && c.lng_max !== null
    ? { lat_min: c.lat_min, lat_max: c.lat_max, lng_min: c.lng_min, lng_max: c.lng_max }
    : null;

export async function listAreas(db: Db, carId: string, kind: AreaKind): Promise<AreaRow[]> {
  const rows = await db
    .selectFrom('areas')
    .select(['id', 'name', 'lat_min', 'lat_max', 'lng_min', 'lng_max'])
    .where('car_id', '=', carId)
    .where('kind', '=', kind)
    .orderBy('position')
    .orderBy('id')
    .execute();
  return rows.map(({ id, ...a }) => ({ area_id: Number(id), ...a }));
}

/** Locks the vehicle's row so concurrent replacements of its lists run one after the other. */
export async function lockCar(db: Db, carId: string) {
  return db
    .selectFrom('cars')
    .select(['car_id', 'is_delete'])
    .where('car_id', '=', carId)
    .forUpdate()
    .executeTakeFirst();
}

/** Vehicles with their company, locked in the order of their ids (two bulk changes never wait on each other in a circle). */
export async function lockCars(db: Db, carIds: readonly string[]) {
  return db
    .selectFrom('cars')
    .select(['car_id', 'company_id', 'is_delete'])
    .where('car_id', 'in', carIds)
    .orderBy('car_id')
    .forUpdate()
    .execute();
}

/** Replaces one list of a vehicle; run inside a transaction that holds lockCar. */
export async function replaceAreas(db: Db, carId: string, kind: AreaKind, areas: readonly NamedArea[]) {
  await db.deleteFrom('areas').where('car_id', '=', carId).where('kind', '=', kind).execute();
  if (areas.length === 0) return;
  await db
    .insertInto('areas')
    .values(
      areas.map((a, position) => ({
        car_id: carId,
        kind,
        position,
        name: a.name,
        lat_min: a.lat_min,
        lat_max: a.lat_max,
        lng_min: a.lng_min,
        lng_max: a.lng_max,
      })),
    )
    .execute();
}

/** The last position the server knows for a terminal (device_latest_state). */
/** The terminal's latest position, if the company may read it (null: any company). */
export async function latestPosition(db: Db, carDataId: string, company: string | null) {
  const r = await findLatestStateRow(db, carDataId, company);
  if (!r || r.lat === null || r.lng === null) return null;
  const at = r.position_at ?? r.recorded_at;
  return { lat: r.lat, lng: r.lng, recorded_at: at === null ? null : new Date(at).toISOString() };
}
