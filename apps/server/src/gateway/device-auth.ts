import { addressAllowed, deviceProtocolMessages as msg } from '@fleet/contract';
import type { Db } from '../db/database.js';
import { hashDeviceSecret, verifyDeviceSecret } from '../credentials/device-secret.js';
import { AppError, forbidden } from '../http/errors.js';
import type { TerminalRow } from '../credentials/terminal-cache.js';

export interface AuthedDevice {
  car_device_id: string;
  /** The IMEI: the key of everything the terminal reports. */
  car_data_id: string;
}

/** Checked against when the terminal id is unknown, so the answer takes as long. */
const dummyHash = hashDeviceSecret('no-such-terminal');

export const deviceUnauthorized = () => new AppError(401, 'UNAUTHORIZED', msg.unauthorized);

const TERMINAL_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** `Authorization: Basic base64(car_device_id:password)` → id and password, or null. */
export function parseBasic(header: string | undefined): { id: string; password: string } | null {
  const m = /^Basic\s+([A-Za-z0-9+/=]{1,512})\s*$/i.exec(header ?? '');
  if (!m) return null;
  const text = Buffer.from(m[1]!, 'base64').toString('utf8');
  const colon = text.indexOf(':');
  if (colon <= 0) return null;
  const id = text.slice(0, colon);
  const password = text.slice(colon + 1);
  // Terminal ids are the contract's ids; anything else (a NUL made PostgreSQL fail the lookup) is no terminal.
  return TERMINAL_ID.test(id) && password.length >= 1 && password.length <= 128 ? { id, password } : null;
}

/** Finds a terminal by its id (car_device_id). */
export type DeviceLookup = (carDeviceId: string) => Promise<TerminalRow | undefined>;

/** Terminals by id, many in one query. */
export async function findDevices(db: Db, ids: readonly string[]): Promise<Map<string, TerminalRow>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('devices')
    .select(['car_device_id', 'car_data_id', 'password_hash', 'is_delete', 'protocol', 'ipaddr'])
    .where('car_device_id', 'in', [...ids])
    .execute();
  return new Map(rows.map((r) => [r.car_device_id, r]));
}

/**
 * Wrong id or password, a terminal registered with another protocol (OsmAnd, Teltonika, GT06 have
 * adapters of their own), or a source `address` outside the terminal's allow-list (`ipaddr`) → 401,
 * the same answer; a logically deleted terminal with the right password → 403.
 */
export async function authenticateDevice(
  db: Db,
  header: string | undefined,
  address: string | undefined,
  lookup: DeviceLookup = async (id) => (await findDevices(db, [id])).get(id),
): Promise<AuthedDevice> {
  const creds = parseBasic(header);
  if (!creds) throw deviceUnauthorized();
  const device = await lookup(creds.id);
  const ok = verifyDeviceSecret(creds.password, device?.password_hash ?? dummyHash);
  if (!device || !ok || device.protocol !== 'json' || !addressAllowed(device.ipaddr, address))
    throw deviceUnauthorized();
  if (device.is_delete) throw forbidden(msg.deviceDeleted);
  return { car_device_id: device.car_device_id, car_data_id: device.car_data_id };
}
