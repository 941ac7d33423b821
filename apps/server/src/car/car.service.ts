import { carMessages, type CarForm } from '@fleet/contract';
import type { z } from 'zod';
import { writeAudit } from '../audit/audit.repository.js';
import type { Db } from '../db/database.js';
import { isUniqueViolation } from '../db/pg-errors.js';
import { AppError, badRequest, conflict, notFound } from '../http/errors.js';
import {
  carExists,
  deviceOnOtherCar,
  findCar,
  findLiveDevice,
  findLiveUser,
  insertCar,
  setCarDeleted,
  updateCar,
  type CarValues,
} from './car.repository.js';
import type { Access } from '../access/access.js';

type CarInfo = z.output<typeof CarForm>;

const carIdInUse = () => conflict(carMessages.carIdInUse, { car_id: carMessages.carIdInUse });
const deviceInUse = () => conflict(carMessages.deviceInUse, { car_device_id: carMessages.deviceInUse });
const mapUniqueViolation = (e: unknown): never => {
  if (isUniqueViolation(e, 'cars_device_key')) throw deviceInUse();
  if (isUniqueViolation(e)) throw carIdInUse();
  throw e;
};

/**
 * The row a form becomes: the company comes from the customer, car_data_id
 * from the terminal's IMEI; a terminal on another live vehicle is refused.
 */
async function toValues(db: Db, access: Access, info: CarInfo): Promise<CarValues> {
  const user = await findLiveUser(db, info.user_id, access.company);
  if (!user) throw badRequest(carMessages.userMissing, { user_id: carMessages.userMissing });
  let car_data_id: string | null = null;
  if (info.car_device_id) {
    const device = await findLiveDevice(db, info.car_device_id);
    if (!device) throw badRequest(carMessages.deviceMissing, { car_device_id: carMessages.deviceMissing });
    if (await deviceOnOtherCar(db, info.car_device_id, info.car_id)) throw deviceInUse();
    car_data_id = device.car_data_id;
  }
  const { available_data: area, ...car } = info;
  return {
    ...car,
    company_id: user.company_id,
    car_data_id,
    ...(area ?? { lat_min: null, lat_max: null, lng_min: null, lng_max: null }),
  };
}

/** Registers a vehicle (super admin); `db` may be a transaction (the registration wizard). */
export async function addCar(db: Db, access: Access, info: CarInfo) {
  if (await carExists(db, info.car_id)) throw carIdInUse();
  await insertCar(db, await toValues(db, access, info)).catch(mapUniqueViolation);
  await writeAudit(db, access, 'car.add', 'car', info.car_id, {
    user_id: info.user_id,
    car_device_id: info.car_device_id,
  });
}

export async function editCar(db: Db, access: Access, info: CarInfo) {
  const current = await findCar(db, info.car_id, access.company);
  if (!current) throw notFound();
  // Terminals are the super admin's (docs/product.md §6): nobody else puts one on or takes one off.
  if (!access.caps.devicesAndCompanies && info.car_device_id !== current.car_device_id)
    throw new AppError(403, 'FORBIDDEN', carMessages.deviceChangeForbidden, {
      car_device_id: carMessages.deviceChangeForbidden,
    });
  await updateCar(db, await toValues(db, access, info)).catch(mapUniqueViolation);
  await writeAudit(db, access, 'car.update', 'car', info.car_id, {
    user_id: info.user_id,
    car_device_id: info.car_device_id,
  });
}

/** Logical delete or restore; a restore needs its customer and terminal still live and free. */
export async function deleteCar(db: Db, access: Access, carId: string, isDelete: boolean) {
  const car = await findCar(db, carId, access.company);
  if (!car) throw notFound();
  if (!isDelete && car.isDelete) {
    const userOk = !car.user || !car.user.isDelete;
    const deviceOk =
      !car.device || (!car.device.isDelete && !(await deviceOnOtherCar(db, car.device.car_device_id, carId)));
    if (!userOk || !deviceOk) throw conflict(carMessages.restoreBlocked);
  }
  await setCarDeleted(db, carId, isDelete).catch((e: unknown) => {
    throw isUniqueViolation(e) ? conflict(carMessages.restoreBlocked) : e;
  });
  await writeAudit(db, access, isDelete ? 'car.delete' : 'car.restore', 'car', carId);
}
