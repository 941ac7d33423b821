import { areaMessages, type AreaKind } from '@fleet/contract';
import type { Db } from '../db/database.js';
import { conflict, notFound } from '../http/errors.js';
import { findCar, lockCar, replaceAreas, type NamedArea } from './areas.repository.js';
import type { Access } from '../access/access.js';

/** The vehicle, when the caller may see it (another company's is "not found"). */
export async function visibleCar(db: Db, access: Access, carId: string) {
  const car = (await access.sees('car_id', carId)) ? await findCar(db, carId) : undefined;
  if (!car) throw notFound();
  return car;
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
