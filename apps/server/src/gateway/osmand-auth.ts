import { addressAllowed, deviceProtocolMessages as msg } from '@fleet/contract';
import type { Db } from '../db/database.js';
import { hashDeviceSecret, verifyDeviceSecret } from '../credentials/device-secret.js';
import { forbidden } from '../http/errors.js';
import { deviceUnauthorized, type AuthedDevice } from './device-auth.js';
import type { OsmandQuery } from './osmand-decoder.js';

/** Checked against when the IMEI is unknown, so the answer takes as long. */
const dummyHash = hashDeviceSecret('no-such-osmand-terminal');
const IMEI_LIKE = /^[A-Za-z0-9_-]{1,64}$/;

/** The terminal's IMEI as an OsmAnd client sends it: `id` / `deviceid` (query or form), `device_id` (Traccar Client 9 JSON). */
export function osmandIdOf(params: OsmandQuery, body: unknown): string | undefined {
  const json = body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
  const raw = [json.device_id, json.deviceid, json.id, params.id, params.deviceid].find(
    (v) => v !== undefined && v !== null && v !== '',
  );
  const text = (Array.isArray(raw) ? raw[0] : raw) as unknown;
  return typeof text === 'string' || typeof text === 'number' ? String(text).trim() || undefined : undefined;
}

/**
 * The terminal with this IMEI, registered with protocol 'osmand', whose password is the one in the URL,
 * reporting from a source `address` its allow-list (`ipaddr`) lets in.
 * Unknown, another protocol, a wrong password or another source: 401 (the same answer, so nothing is
 * learnt); a deleted terminal with the right password: 403, as in the JSON gateway.
 */
export async function authenticateOsmand(
  db: Db,
  imei: string,
  password: string,
  address: string | undefined,
): Promise<AuthedDevice> {
  const device = IMEI_LIKE.test(imei)
    ? await db
        .selectFrom('devices')
        .select(['car_device_id', 'car_data_id', 'password_hash', 'is_delete', 'protocol', 'ipaddr'])
        .where('car_data_id', '=', imei)
        .executeTakeFirst()
    : undefined;
  const sane = password.length >= 1 && password.length <= 128;
  const ok = verifyDeviceSecret(sane ? password : '', device?.password_hash ?? dummyHash);
  if (!device || !ok || !sane || device.protocol !== 'osmand' || !addressAllowed(device.ipaddr, address))
    throw deviceUnauthorized();
  if (device.is_delete) throw forbidden(msg.deviceDeleted);
  return { car_device_id: device.car_device_id, car_data_id: device.car_data_id };
}
