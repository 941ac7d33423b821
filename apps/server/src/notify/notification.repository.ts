import type { Area, NotifyItemKey, NotifyKey } from '@fleet/contract';
import { sql } from 'kysely';
import type { Db } from '../db/database.js';

/** What a notification is about: a vehicle, as the mail names it and as scope decides. */
export interface NotifyCar {
  car_id: string;
  car_number: string;
  company_id: string | null;
  car_data_id: string;
  lat_min: number | null;
  lat_max: number | null;
  lng_min: number | null;
  lng_max: number | null;
}

const carColumns = [
  'car_id',
  'car_number',
  'company_id',
  'car_data_id',
  'lat_min',
  'lat_max',
  'lng_min',
  'lng_max',
] as const;

/** The live vehicles the terminals (IMEIs) are fitted to; normally one each. In IMEI, then vehicle order. */
export async function findCarsByDataIds(db: Db, carDataIds: readonly string[]): Promise<NotifyCar[]> {
  if (carDataIds.length === 0) return [];
  const rows = await db
    .selectFrom('cars')
    .select(carColumns)
    .where('car_data_id', 'in', [...carDataIds])
    .where('is_delete', '=', false)
    .orderBy('car_data_id')
    .orderBy('car_id')
    .execute();
  return rows.map((r) => ({ ...r, car_data_id: r.car_data_id! }));
}

/**
 * Serialises deciding about one account, vehicle and item across every
 * server instance until the transaction ends, so two instances cannot both
 * find "nothing sent yet" and both send.
 */
export async function lockNotificationKey(trx: Db, accountId: string, carId: string, item: NotifyKey): Promise<void> {
  await sql`SELECT pg_advisory_xact_lock(hashtext(${`notify|${accountId}|${carId}|${item}`}))`.execute(trx);
}

/** Whether a notification went out for this account, vehicle and item after `since`. */
export async function notifiedSince(
  db: Db,
  accountId: string,
  carId: string,
  item: NotifyKey,
  since: Date,
): Promise<boolean> {
  const row = await db
    .selectFrom('notification_events')
    .select('id')
    .where('account_id', '=', accountId)
    .where('car_id', '=', carId)
    .where('item', '=', item)
    .where('at', '>', since)
    .limit(1)
    .executeTakeFirst();
  return !!row;
}

export async function recordNotification(
  db: Db,
  e: {
    account_id: string;
    car_id: string;
    item: NotifyKey;
    detail: Record<string, unknown>;
    outbox_id: number | null;
    at: Date;
  },
): Promise<void> {
  await db
    .insertInto('notification_events')
    .values({ ...e, detail: JSON.stringify(e.detail) })
    .execute();
}

/** Latest notification per account, vehicle and item among `items`: the sweep's quick pre-check. */
export async function lastNotifications(db: Db, items: readonly NotifyItemKey[]): Promise<Map<string, Date>> {
  const rows = await db
    .selectFrom('notification_events')
    .select(['account_id', 'car_id', 'item', sql<Date>`max(at)`.as('at')])
    .where('item', 'in', items)
    .groupBy(['account_id', 'car_id', 'item'])
    .execute();
  return new Map(rows.map((r) => [notificationKey(r.account_id, r.car_id, r.item), new Date(r.at)]));
}
export const notificationKey = (accountId: string, carId: string, item: string) =>
  `${accountId}\u0000${carId}\u0000${item}`;

/** Events are kept 400 days, longer than the longest episode (car_negrected: 365 days). */
export async function pruneNotificationEvents(db: Db, now: Date): Promise<void> {
  await db
    .deleteFrom('notification_events')
    .where('at', '<', new Date(now.getTime() - 400 * 86_400_000))
    .execute();
}

/** Per vehicle: available_data (when complete) plus its area rows. */
export async function loadVehicleAreas(
  db: Db,
  cars: readonly NotifyCar[],
): Promise<Map<string, { available: Area[]; disable: Area[] }>> {
  const out = new Map<string, { available: Area[]; disable: Area[] }>();
  for (const car of cars) {
    const own = car.lat_min !== null && car.lat_max !== null && car.lng_min !== null && car.lng_max !== null;
    out.set(car.car_id, {
      available: own
        ? [{ lat_min: car.lat_min!, lat_max: car.lat_max!, lng_min: car.lng_min!, lng_max: car.lng_max! }]
        : [],
      disable: [],
    });
  }
  if (cars.length === 0) return out;
  const rows = await db
    .selectFrom('areas')
    .select(['car_id', 'kind', 'lat_min', 'lat_max', 'lng_min', 'lng_max'])
    .where(
      'car_id',
      'in',
      cars.map((c) => c.car_id),
    )
    .orderBy('car_id')
    .orderBy('kind')
    .orderBy('position')
    .execute();
  for (const { car_id, kind, ...area } of rows) {
    const areas = out.get(car_id)!;
    (kind === 'available' ? areas.available : areas.disable).push(area);
  }
  return out;
}

/** The last positions the server knows for terminals, from their latest state (absent: none). */
export async function latestPositions(
  db: Db,
  carDataIds: readonly string[],
): Promise<Map<string, { lat: number; lng: number }>> {
  if (carDataIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('device_latest_state')
    .select(['car_data_id', 'lat', 'lng'])
    .where('car_data_id', 'in', [...carDataIds])
    .execute();
  return new Map(
    rows.flatMap((r) =>
      r.lat !== null && r.lng !== null ? [[r.car_data_id, { lat: r.lat, lng: r.lng }] as const] : [],
    ),
  );
}

/** Every live vehicle with a terminal, with what the sweep judges by. */
export async function listSweepVehicles(db: Db) {
  const rows = await db
    .selectFrom('cars as c')
    .leftJoin('device_latest_state as s', 's.car_data_id', 'c.car_data_id')
    .leftJoin('vehicle_motion as m', 'm.car_data_id', 'c.car_data_id')
    .select([
      'c.car_id',
      'c.car_number',
      'c.company_id',
      'c.car_data_id',
      'c.lat_min',
      'c.lat_max',
      'c.lng_min',
      'c.lng_max',
      's.last_seen_at',
      's.lat',
      's.lng',
      'm.moved_at',
      'm.anchor_lat',
      'm.anchor_lng',
      'm.engine_running',
      'm.idle_since',
    ])
    .where('c.is_delete', '=', false)
    .where('c.car_data_id', 'is not', null)
    .orderBy('c.car_id')
    .execute();
  const d = (v: Date | string | null | undefined) => (v === null || v === undefined ? null : new Date(v));
  return rows.map((r) => ({
    car: {
      car_id: r.car_id,
      car_number: r.car_number,
      company_id: r.company_id,
      car_data_id: r.car_data_id!,
      lat_min: r.lat_min,
      lat_max: r.lat_max,
      lng_min: r.lng_min,
      lng_max: r.lng_max,
    } satisfies NotifyCar,
    last_seen_at: d(r.last_seen_at),
    position:
      r.lat != null && r.lng != null
        ? { lat: r.lat, lng: r.lng }
        : r.anchor_lat != null && r.anchor_lng != null
          ? { lat: r.anchor_lat, lng: r.anchor_lng }
          : null,
    moved_at: d(r.moved_at),
    engine_running: r.engine_running ?? null,
    idle_since: d(r.idle_since),
  }));
}
export type SweepVehicle = Awaited<ReturnType<typeof listSweepVehicles>>[number];
