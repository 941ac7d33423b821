import type { Area, FleetCar } from '@fleet/contract';
import { sql } from 'kysely';
import type { Db } from '../db/database.js';
import { inGroup, inGroups } from '../access/visibility.js';
import { addressesAt } from '../geocode/addresses.js';
import { wholeStateFromJson, readableStateJson } from '../telemetry/latest-state.repository.js';

/**
 * The fleet map's vehicles: every live vehicle of `company` (null: all), with the latest state the
 * `scope` may read (terminal periods, latest-state.repository) and its available region.
 */
export async function listFleetCars(
  db: Db,
  company: string | null,
  scope: string | null,
  groups: { limit: readonly string[] | null; filter?: string | null | undefined } = { limit: null },
): Promise<FleetCar[]> {
  let cars = db.selectFrom('cars as c').where('c.is_delete', '=', false);
  if (company !== null) cars = cars.where('c.company_id', '=', company);
  // A group-limited reader's groups, and the group the map is filtered by (docs/groups.md).
  if (groups.limit !== null) cars = cars.where(inGroups(sql.ref('c.car_id'), groups.limit));
  if (groups.filter) cars = cars.where(inGroup(sql.ref('c.car_id'), groups.filter));
  const rows = await cars
    .select(['c.car_id', 'c.car_number', 'c.company_id', 'c.company_name', 'c.user_name', 'c.car_data_id'])
    .select(['c.lat_min', 'c.lat_max', 'c.lng_min', 'c.lng_max'])
    // Each vehicle's latest state as `scope` may read it, in the same statement (one JSON array a row).
    .select(readableStateJson(db, sql.ref('c.car_data_id'), scope, 'whole').as('latest'))
    .orderBy('c.car_id')
    .execute();
  const areaRows = await db
    .selectFrom('areas as a')
    .innerJoin(cars.select('c.car_id').as('v'), 'v.car_id', 'a.car_id')
    .select(['a.car_id', 'a.lat_min', 'a.lat_max', 'a.lng_min', 'a.lng_max'])
    .where('a.kind', '=', 'available')
    .execute();
  const areas = new Map<string, Area[]>();
  for (const { car_id, ...a } of areaRows) areas.set(car_id, [...(areas.get(car_id) ?? []), a]);
  const list = rows.map(({ lat_min, lat_max, lng_min, lng_max, latest, ...r }) => {
    const own =
      lat_min !== null && lat_max !== null && lng_min !== null && lng_max !== null
        ? { lat_min, lat_max, lng_min, lng_max }
        : null;
    return {
      ...r,
      state: wholeStateFromJson(latest),
      areas: [...(own ? [own] : []), ...(areas.get(r.car_id) ?? [])],
    };
  });
  // Each latest position's address from the geocode cache (docs/geocoding.md); unknown ones are queued.
  const addressOf = await addressesAt(
    db,
    list.flatMap((c) => (c.state ? [c.state] : [])),
    { queue: true },
  );
  return list.map((c) => ({ ...c, address: c.state ? addressOf(c.state.lat, c.state.lng) : null }));
}
