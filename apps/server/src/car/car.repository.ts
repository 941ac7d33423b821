import { carSearchColumns, carSortColumns, paymentDelays, type Area, type CarDetail } from '@fleet/contract';
import { sql } from 'kysely';
import type { z } from 'zod';
import type { Db } from '../db/database.js';
import { defineList, type ListFilterInput, type ListScope, type PagingInput } from '../http/list-query.js';
import { findLatestState, listStateFromJson, readableStateJson } from '../telemetry/latest-state.repository.js';
import type { Access } from '../access/access.js';
import { inGroup, inGroups } from '../access/visibility.js';

export interface CarListFilter extends ListFilterInput {
  isNormal: boolean;
  /** Only the vehicles of this group (docs/groups.md). */
  group_id?: string | null | undefined;
}

/** The vehicle list's caller: its company and the groups it is limited to (null: not limited). */
interface CarListScope extends ListScope {
  groups: readonly string[] | null;
}

/**
 * Every column lives on the vehicle row: the customer's full name, merchant and
 * payment delay and the company's name are copies the database keeps
 * (migration list_sort_keys), so sorts and searches use the vehicle's indexes.
 */
const carList = defineList({
  fast: true,
  columns: {
    car_id: { expr: sql.ref('c.car_id') },
    car_number: { expr: sql.ref('c.car_number'), key: { expr: sql.ref('c.car_number_key') } },
    car_type: { expr: sql.ref('c.car_type') },
    user_name: {
      expr: sql.ref('c.user_name'),
      key: { expr: sql.ref('c.user_name_key'), bigrams: sql.ref('c.user_name_key_bigrams') },
    },
    merchant: { expr: sql.ref('c.user_merchant') },
    payment_log: {
      expr: sql.ref('c.user_payment_log'),
      labels: Object.fromEntries(Object.entries(paymentDelays).map(([k, v]) => [k, v.label])),
    },
    company_name: { expr: sql.ref('c.company_name') },
    car_status: { expr: sql.ref('c.car_status') },
    car_data_id: { expr: sql.ref('c.car_data_id') },
  },
  search: carSearchColumns,
  sortable: carSortColumns,
  primaryKey: 'car_id',
  deleted: sql.ref('c.is_delete'),
  company: sql.ref('c.company_id'),
  // The groups are part of a statement's shape: a group-limited account has its own statements.
  scope: (caller: CarListScope) => ({ company: caller.company, groups: caller.groups }),
  from: (db: Db, scope: CarListScope, filter: CarListFilter) => {
    const q = db
      .selectFrom('cars as c')
      .$if(scope.groups !== null, (w) => w.where(inGroups(sql.ref('c.car_id'), scope.groups)))
      .$if(!!filter.group_id, (w) => w.where(inGroup(sql.ref('c.car_id'), filter.group_id)));
    // isNormal: the terminal's latest device_state is 0 (正常); no report yet is not normal (docs/decisions.md).
    if (!filter.isNormal) return q;
    return q.where(({ exists, selectFrom }) =>
      exists(
        selectFrom('device_latest_state as s')
          .select('s.car_data_id')
          .whereRef('s.car_data_id', '=', 'c.car_data_id')
          .where('s.device_state', '=', 0),
      ),
    );
  },
  // Counted when written (migration list_counts), unless only those with a normal terminal, or of groups, are asked for.
  counted: {
    rows: (db: Db) => db.selectFrom('list_counts as t').where('t.list', '=', 'cars'),
    holds: (filter: CarListFilter, scope: CarListScope) =>
      !filter.isNormal && !filter.group_id && scope.groups === null,
  },
  // The sort keys are the vehicle's own columns (defineList's deferred join); the customer's state and the
  // terminal's latest state (as the company may see it) are joined to the page: one statement.
  rows: (db: Db, p, scope) =>
    db
      .selectFrom(p)
      .innerJoin('cars as c', 'c.car_id', 'p.car_id')
      .leftJoin('car_users as u', 'u.user_id', 'c.user_id')
      .select([
        'c.car_id',
        'c.car_number',
        'c.car_type',
        'c.user_id',
        'c.user_name',
        'c.user_merchant as merchant',
        'c.user_payment_log as payment_log',
        'u.state as user_state',
        'c.company_id',
        'c.company_name',
        'c.car_device_id',
        'c.car_data_id',
        'c.car_status',
        'c.is_delete as isDelete',
        readableStateJson(db, sql.ref('c.car_data_id'), scope.company, 'list').as('latest'),
      ]),
});

export const countCars = carList.count;

export async function listCars(db: Db, access: Access, query: CarListFilter & PagingInput) {
  const rows = await carList.page(db, access, query);
  return rows.map((r) => ({ ...r, latest: listStateFromJson(r.latest) }));
}

/** A vehicle within the company scope (null: all), deleted ones included. */
export async function findCar(
  db: Db,
  carId: string,
  scope: string | null,
): Promise<z.input<typeof CarDetail> | undefined> {
  let q = db
    .selectFrom('cars as c')
    .select([
      'c.car_id',
      'c.car_number',
      'c.car_type',
      'c.car_vin',
      'c.user_id',
      'c.car_device_id',
      'c.car_data_id',
      'c.company_id',
      'c.company_name',
      'c.car_status',
      'c.lat_min',
      'c.lat_max',
      'c.lng_min',
      'c.lng_max',
      'c.is_delete as isDelete',
      'c.created_at',
      'c.updated_at',
    ])
    .where('c.car_id', '=', carId);
  if (scope !== null) q = q.where('c.company_id', '=', scope);
  const car = await q.executeTakeFirst();
  if (!car) return undefined;
  const user = car.user_id
    ? await db
        .selectFrom('car_users')
        .select([
          'user_id',
          'first_name',
          'name',
          'merchant',
          'work_phone',
          'payment_log',
          'state',
          'is_delete as isDelete',
        ])
        .where('user_id', '=', car.user_id)
        .executeTakeFirst()
    : undefined;
  const device = car.car_device_id
    ? await db
        .selectFrom('devices')
        .select(['car_device_id', 'car_data_id', 'ipaddr', 'macaddr', 'car_type', 'is_delete as isDelete'])
        .where('car_device_id', '=', car.car_device_id)
        .executeTakeFirst()
    : undefined;
  const { lat_min, lat_max, lng_min, lng_max } = car;
  const hasArea = lat_min !== null && lat_max !== null && lng_min !== null && lng_max !== null;
  return {
    ...car,
    available_data: hasArea ? { lat_min, lat_max, lng_min, lng_max } : null,
    user: user ?? null,
    device: device ?? null,
    latest: car.car_data_id ? await findLatestState(db, car.car_data_id, scope) : null,
  };
}

/** The next free id of the form C000001 (docs/product.md §7 car_get_newid). */
export async function nextCarId(db: Db): Promise<string> {
  const row = await db
    .selectFrom('cars')
    .select(sql<number>`coalesce(max(substring(car_id from 2)::int), 0)::int`.as('n'))
    .where(sql<boolean>`car_id ~ '^C[0-9]{6,9}$'`)
    .executeTakeFirstOrThrow();
  return `C${String(Number(row.n) + 1).padStart(6, '0')}`;
}

export async function carExists(db: Db, carId: string) {
  return !!(await db.selectFrom('cars').select('car_id').where('car_id', '=', carId).executeTakeFirst());
}

/** The live customer, within a company scope (null: any). */
export const findLiveUser = (db: Db, userId: string, scope: string | null) => {
  let q = db
    .selectFrom('car_users')
    .select(['user_id', 'company_id'])
    .where('user_id', '=', userId)
    .where('is_delete', '=', false);
  if (scope !== null) q = q.where('company_id', '=', scope);
  return q.executeTakeFirst();
};

export const findLiveDevice = (db: Db, carDeviceId: string) =>
  db
    .selectFrom('devices')
    .select(['car_device_id', 'car_data_id'])
    .where('car_device_id', '=', carDeviceId)
    .where('is_delete', '=', false)
    .executeTakeFirst();

/** Whether a live vehicle other than `exceptCarId` carries the terminal. */
export async function deviceOnOtherCar(db: Db, carDeviceId: string, exceptCarId: string) {
  const row = await db
    .selectFrom('cars')
    .select('car_id')
    .where('car_device_id', '=', carDeviceId)
    .where('is_delete', '=', false)
    .where('car_id', '<>', exceptCarId)
    .executeTakeFirst();
  return !!row;
}

export interface CarValues {
  car_id: string;
  car_number: string;
  car_type: string;
  car_vin: string;
  user_id: string;
  company_id: string | null;
  car_device_id: string | null;
  car_data_id: string | null;
  lat_min: number | null;
  lat_max: number | null;
  lng_min: number | null;
  lng_max: number | null;
}

export async function insertCar(db: Db, values: CarValues) {
  await db.insertInto('cars').values(values).execute();
}

export async function updateCar(db: Db, values: CarValues) {
  const { car_id, ...rest } = values;
  await db
    .updateTable('cars')
    .set({ ...rest, updated_at: sql`now()` })
    .where('car_id', '=', car_id)
    .execute();
}

export async function setCarStatus(db: Db, carId: string, carStatus: number) {
  await db
    .updateTable('cars')
    .set({ car_status: carStatus, updated_at: sql`now()` })
    .where('car_id', '=', carId)
    .execute();
}

export async function setCarDeleted(db: Db, carId: string, isDelete: boolean) {
  await db
    .updateTable('cars')
    .set({ is_delete: isDelete, updated_at: sql`now()` })
    .where('car_id', '=', carId)
    .execute();
}

/** The rectangle a vehicle may be used in (areas/: available_data), or none. */
export async function setAvailableData(db: Db, carId: string, a: Area | null, now: Date) {
  await db
    .updateTable('cars')
    .set({
      lat_min: a?.lat_min ?? null,
      lat_max: a?.lat_max ?? null,
      lng_min: a?.lng_min ?? null,
      lng_max: a?.lng_max ?? null,
      updated_at: now,
    })
    .where('car_id', '=', carId)
    .execute();
}

/** A customer's vehicles follow the customer to another company (docs/decisions.md). */
export async function moveCustomerCars(db: Db, userId: string, companyId: string | null) {
  await db
    .updateTable('cars')
    .set({ company_id: companyId, updated_at: sql`now()` })
    .where('user_id', '=', userId)
    .where('company_id', 'is distinct from', companyId)
    .execute();
}

/**
 * A vehicle keeps car_data_id equal to its terminal's IMEI when the terminal's IMEI changes. Called before
 * the terminal's own update: a vehicle write locks the vehicle, then (list_sort_keys trigger) the terminal.
 */
export async function followTerminalImei(db: Db, carDeviceId: string, imei: string) {
  await db
    .updateTable('cars')
    .set({ car_data_id: imei, updated_at: sql`now()` })
    .where('car_device_id', '=', carDeviceId)
    .where('car_data_id', 'is distinct from', imei)
    .execute();
}
