import { engineMessages, type Actor } from '@fleet/contract';
import type { Db } from '../db/database.js';
import { conflict, notFound } from '../http/errors.js';
import { companyScope, isVisible } from '../scope/visibility.js';

/**
 * Who may act on which terminal or vehicle (ARCHITECTURE.md matrix: engine
 * control and areas for every role, on vehicles of their own company). A
 * vehicle or terminal outside the actor's company is "not found".
 */
export async function assertTerminalVisible(db: Db, actor: Actor, carDataId: string) {
  if (!(await isVisible(db, actor, 'car_data_id', carDataId))) throw notFound();
}

export async function assertCarVisible(db: Db, actor: Actor, carId: string) {
  if (!(await isVisible(db, actor, 'car_id', carId))) throw notFound();
}

/**
 * A command may only be reserved for a terminal that sits on a live vehicle
 * in the actor's scope: a deleted vehicle, or (for the super admin) a terminal
 * on no vehicle, is a 409 with the reason.
 */
export async function assertTerminalReservable(db: Db, actor: Actor, carDataId: string) {
  await assertTerminalVisible(db, actor, carDataId);
  const scope = companyScope(actor);
  let q = db.selectFrom('cars').select('is_delete').where('car_data_id', '=', carDataId);
  if (scope !== null) q = q.where('company_id', '=', scope);
  const cars = await q.execute();
  if (cars.length === 0) throw conflict(engineMessages.noVehicle);
  if (cars.every((c) => c.is_delete)) throw conflict(engineMessages.carDeleted);
}

/** The vehicle of a reservation request: visible, live, with a terminal. */
export async function assertCarReservable(db: Db, actor: Actor, carId: string) {
  await assertCarVisible(db, actor, carId);
  const car = await db.selectFrom('cars').select(['is_delete', 'car_data_id']).where('car_id', '=', carId).executeTakeFirstOrThrow();
  if (car.is_delete) throw conflict(engineMessages.carDeleted);
  if (!car.car_data_id) throw conflict(engineMessages.noDevice);
}
