import { ENGINE_CMD_IDX, capabilities, engineMessages, type Actor, type ReservedCommandType } from '@fleet/contract';
import type { Db } from '../db/database.js';
import type { AuthedActor } from '../http/context.js';
import { AppError, conflict, forbidden, notFound } from '../http/errors.js';
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

/**
 * The right to change what a terminal does (ARCHITECTURE.md matrix): engine permit / prohibit needs
 * the account's エンジン制御権限; software and settings updates are the super admin's alone.
 */
export function assertMayCommand(actor: AuthedActor, type: ReservedCommandType) {
  if (type !== 'set_engine_boot_permission') {
    if (!capabilities(actor).superAdmin) throw forbidden(engineMessages.superAdminOnly);
    return;
  }
  if (!actor.engine_control) throw forbidden(engineMessages.noEngineRight);
}

/** The same right for a slot (deleting its waiting command). */
export const assertMayCommandSlot = (actor: AuthedActor, cmdIdx: number) =>
  assertMayCommand(actor, cmdIdx === ENGINE_CMD_IDX ? 'set_engine_boot_permission' : 'req_client_update');

/** A prohibit (cmd 1), now or scheduled, needs a step-up within the last few minutes; a permit does not. */
export function assertSteppedUpFor(actor: AuthedActor, cmd: number, now: Date) {
  if (cmd !== 1) return;
  if (actor.stepped_up_until !== null && actor.stepped_up_until.getTime() > now.getTime()) return;
  throw new AppError(403, 'STEP_UP_REQUIRED', engineMessages.stepUpRequired);
}
