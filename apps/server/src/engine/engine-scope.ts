import { engineMessages } from '@fleet/contract';
import type { Access } from '../access/access.js';
import type { Db } from '../db/database.js';
import { conflict } from '../http/errors.js';

/**
 * A command may only be reserved for a terminal that sits on a live vehicle in the caller's scope
 * (access/access.ts decides the scope): a deleted vehicle, or (for the super admin) a terminal on no
 * vehicle, is a 409 with the reason.
 */
export async function assertTerminalReservable(db: Db, access: Access, carDataId: string) {
  await access.see('car_data_id', carDataId);
  let q = db.selectFrom('cars').select('is_delete').where('car_data_id', '=', carDataId);
  if (access.company !== null) q = q.where('company_id', '=', access.company);
  const cars = await q.execute();
  if (cars.length === 0) throw conflict(engineMessages.noVehicle);
  if (cars.every((c) => c.is_delete)) throw conflict(engineMessages.carDeleted);
}

/** The vehicle of a reservation request: visible, live, with a terminal. */
export async function assertCarReservable(db: Db, access: Access, carId: string) {
  await access.see('car_id', carId);
  const car = await db
    .selectFrom('cars')
    .select(['is_delete', 'car_data_id'])
    .where('car_id', '=', carId)
    .executeTakeFirstOrThrow();
  if (car.is_delete) throw conflict(engineMessages.carDeleted);
  if (!car.car_data_id) throw conflict(engineMessages.noDevice);
}
