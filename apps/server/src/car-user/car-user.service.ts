import { carUserMessages, type CarUserFormValues } from '@fleet/contract';
import type { Db } from '../db/database.js';
import { isUniqueViolation } from '../db/pg-errors.js';
import { conflict, notFound } from '../http/errors.js';
import {
  carUserExists,
  findCarUser,
  hasLiveCar,
  insertCarUser,
  setCarUserDeleted,
  updateCarUser,
} from './car-user.repository.js';
import type { Access } from '../access/access.js';

const userIdInUse = () => conflict(carUserMessages.userIdInUse, { user_id: carUserMessages.userIdInUse });

/** Registers a customer (super admin); `db` may be a transaction (the registration wizard). */
export async function addCarUser(db: Db, access: Access, info: CarUserFormValues) {
  const company_id = await access.companyFor(info.company_id, carUserMessages, db);
  if (await carUserExists(db, info.user_id)) throw userIdInUse();
  await insertCarUser(db, { ...info, company_id }).catch((e: unknown) => {
    throw isUniqueViolation(e) ? userIdInUse() : e;
  });
}

export async function editCarUser(db: Db, access: Access, info: CarUserFormValues) {
  if (!(await findCarUser(db, info.user_id, access.company))) throw notFound();
  const company_id = await access.companyFor(info.company_id, carUserMessages, db);
  await db.transaction().execute((trx) => updateCarUser(trx, { ...info, company_id }));
}

/** Logical delete or restore; a customer still on a live vehicle stays. */
export async function deleteCarUser(db: Db, access: Access, userId: string, isDelete: boolean) {
  if (!(await findCarUser(db, userId, access.company))) throw notFound();
  if (isDelete && (await hasLiveCar(db, userId))) throw conflict(carUserMessages.onVehicle);
  await setCarUserDeleted(db, userId, isDelete);
}
