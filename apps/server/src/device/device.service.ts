import { deviceMessages, type DeviceEditForm, type DeviceForm } from '@fleet/contract';
import type { z } from 'zod';
import { hashDeviceSecret } from '../credentials/device-secret.js';
import type { Db } from '../db/database.js';
import { terminalsChanged } from '../credentials/terminal-cache.js';
import { isUniqueViolation } from '../db/pg-errors.js';
import { conflict, notFound } from '../http/errors.js';
import { deviceExists, findDevice, insertDevice, setDeviceDeleted, updateDevice } from './device.repository.js';

const imeiInUse = () => conflict(deviceMessages.imeiInUse, { car_data_id: deviceMessages.imeiInUse });
const idInUse = () => conflict(deviceMessages.deviceIdInUse, { car_device_id: deviceMessages.deviceIdInUse });
const mapUniqueViolation = (e: unknown): never => {
  if (isUniqueViolation(e, 'devices_imei_key')) throw imeiInUse();
  if (isUniqueViolation(e)) throw idInUse();
  throw e;
};

/** Registers a terminal; `db` may be a transaction (the registration wizard). */
export async function addDevice(db: Db, info: z.output<typeof DeviceForm>) {
  const { password, ...values } = info;
  if (await deviceExists(db, 'car_device_id', values.car_device_id)) throw idInUse();
  // docs/product.md §5/§8: an IMEI already registered (deleted terminals included) is refused.
  if (await deviceExists(db, 'car_data_id', values.car_data_id)) throw imeiInUse();
  await insertDevice(db, values, hashDeviceSecret(password)).catch(mapUniqueViolation);
}

export async function editDevice(db: Db, info: z.output<typeof DeviceEditForm>) {
  const { password, ...values } = info;
  if (!(await findDevice(db, values.car_device_id))) throw notFound();
  if (await deviceExists(db, 'car_data_id', values.car_data_id, values.car_device_id)) throw imeiInUse();
  const hash = password ? hashDeviceSecret(password) : undefined;
  await db
    .transaction()
    .execute((trx) => updateDevice(trx, values, hash))
    .catch(mapUniqueViolation);
  await terminalsChanged(db, { carDeviceId: values.car_device_id });
}

/** Logical delete or restore; a terminal on a live vehicle stays. */
export async function deleteDevice(db: Db, carDeviceId: string, carDataId: string, isDelete: boolean) {
  const device = await findDevice(db, carDeviceId);
  if (!device || device.car_data_id !== carDataId) throw notFound();
  if (isDelete && device.car) throw conflict(deviceMessages.onVehicle);
  await setDeviceDeleted(db, carDeviceId, isDelete);
  await terminalsChanged(db, { carDeviceId });
}
