import { areaMessages, type AreaKind } from '@fleet/contract';
import type { Db } from '../db/database.js';
import { conflict, notFound } from '../http/errors.js';
import { findCar, lockCar, lockCars, replaceAreas, type NamedArea } from './areas.repository.js';
import type { Access } from '../access/access.js';

/** The vehicle, when the caller may see it (another company's is "not found"). */
export async function visibleCar(db: Db, access: Access, carId: string) {
  const car = (await access.sees('car_id', carId)) ? await findCar(db, carId) : undefined;
  if (!car) throw notFound();
  return car;
}

/**
 * Replaces the list of each vehicle in one transaction: all or nothing (a deleted vehicle's lists are
 * frozen, and one deleted vehicle leaves every vehicle as it was).
 */
export async function replaceCarsAreas(
  db: Db,
  access: Access,
  carIds: readonly string[],
  kind: AreaKind,
  areas: readonly NamedArea[],
) {
  await db.transaction().execute(async (trx) => {
    const cars = await lockCars(trx, carIds);
    // A vehicle unknown or of another company: not found, as for one vehicle.
    if (cars.length !== carIds.length || cars.some((c) => access.company !== null && c.company_id !== access.company))
      throw notFound();
    if (cars.some((c) => c.is_delete)) throw conflict(areaMessages.carDeleted);
    for (const car of cars) await replaceAreas(trx, car.car_id, kind, areas);
  });
}

/** Replaces a vehicle's list in one transaction; a deleted vehicle's lists are frozen. */
export async function replaceCarAreas(db: Db, carId: string, kind: AreaKind, areas: readonly NamedArea[]) {
  await db.transaction().execute(async (trx) => {
    const car = await lockCar(trx, carId);
    if (!car) throw notFound();
    if (car.is_delete) throw conflict(areaMessages.carDeleted);
    await replaceAreas(trx, carId, kind, areas);
  });
}
