import { deviceSearchColumns, deviceSortColumns, type DeviceDetail, type TerminalProtocol } from '@fleet/contract';
import { sql, type SqlBool } from 'kysely';
import type { z } from 'zod';
import { followTerminalImei } from '../car/car.repository.js';
import type { Db } from '../db/database.js';
import { defineList, type ListFilterInput, type ListScope, type PagingInput } from '../http/list-query.js';
import { findLatestState } from '../telemetry/latest-state.repository.js';
import type { Access } from '../access/access.js';

export interface DeviceListFilter extends ListFilterInput {
  isRegistered?: boolean | null | undefined;
}

const columns = [
  'd.car_device_id',
  'd.ipaddr',
  'd.macaddr',
  'd.car_type',
  'd.car_data_id',
  'd.car_id',
  'd.is_delete as isDelete',
  'd.protocol',
  'd.cmd_cut_text',
  'd.cmd_restore_text',
] as const;

/** Terminals are the super admin's alone: no company scope. */
const deviceList = defineList({
  fast: true,
  columns: {
    car_device_id: { expr: sql.ref('d.car_device_id') },
    ipaddr: { expr: sql.ref('d.ipaddr') },
    macaddr: { expr: sql.ref('d.macaddr') },
    car_data_id: { expr: sql.ref('d.car_data_id') },
    car_type: { expr: sql.ref('d.car_type') },
    // The live vehicle carrying the terminal (at most one: cars_device_key), kept by triggers (migration list_sort_keys).
    car_id: { expr: sql.ref('d.car_id') },
  },
  search: deviceSearchColumns,
  sortable: deviceSortColumns,
  primaryKey: 'car_device_id',
  deleted: sql.ref('d.is_delete'),
  from: (db: Db, _scope: ListScope, filter: DeviceListFilter) =>
    typeof filter.isRegistered === 'boolean'
      ? db.selectFrom('devices as d').where(sql<SqlBool>`(d.car_id is not null) = ${filter.isRegistered}`)
      : db.selectFrom('devices as d'),
  // Counted when written (migration list_counts), unless narrowed to those on (or off) a live vehicle.
  counted: {
    rows: (db: Db) => db.selectFrom('list_counts as t').where('t.list', '=', 'devices'),
    holds: (filter: DeviceListFilter) => typeof filter.isRegistered !== 'boolean',
  },
  rows: (db: Db, p) => db.selectFrom(p).innerJoin('devices as d', 'd.car_device_id', 'p.car_device_id').select(columns),
});

export const countDevices = deviceList.count;

export const listDevices = (db: Db, access: Access, query: DeviceListFilter & PagingInput) =>
  deviceList.page(db, access, query);

/** A terminal (deleted ones too) with its live vehicle and latest state; never its secret. */
export async function findDevice(db: Db, carDeviceId: string): Promise<z.input<typeof DeviceDetail> | undefined> {
  const row = await db
    .selectFrom('devices as d')
    .select([...columns, 'd.created_at', 'd.updated_at'])
    .where('d.car_device_id', '=', carDeviceId)
    .executeTakeFirst();
  if (!row) return undefined;
  const car = row.car_id
    ? await db
        .selectFrom('cars as c')
        .leftJoin('companies as co', 'co.company_id', 'c.company_id')
        .select(['c.car_id', 'c.car_number', 'c.car_type', 'c.user_id', 'c.company_id', 'co.company_name'])
        .where('c.car_id', '=', row.car_id)
        .executeTakeFirstOrThrow()
    : null;
  // Terminals are the super admin's screens: every company's state.
  const latest = await findLatestState(db, row.car_data_id, null);
  return { ...row, car, latest };
}

export async function deviceExists(db: Db, item: 'car_device_id' | 'car_data_id', value: string, exceptId?: string) {
  let q = db.selectFrom('devices').select('car_device_id').where(item, '=', value.trim());
  if (exceptId) q = q.where('car_device_id', '<>', exceptId);
  return !!(await q.executeTakeFirst());
}

export interface DeviceValues {
  car_device_id: string;
  ipaddr: string;
  macaddr: string;
  car_type: string;
  car_data_id: string;
  protocol: TerminalProtocol;
  cmd_cut_text: string;
  cmd_restore_text: string;
}

export async function insertDevice(db: Db, values: DeviceValues, passwordHash: string) {
  await db
    .insertInto('devices')
    .values({ ...values, password_hash: passwordHash })
    .execute();
}

/**
 * Updates a terminal; a vehicle carrying it keeps car_data_id equal to the terminal's IMEI.
 * The vehicle is written first: a vehicle write locks the vehicle, then (trigger of
 * list_sort_keys) the terminal, so the same order here cannot deadlock with it.
 */
export async function updateDevice(db: Db, values: DeviceValues, passwordHash: string | undefined) {
  const { car_device_id, ...rest } = values;
  await followTerminalImei(db, car_device_id, values.car_data_id);
  await db
    .updateTable('devices')
    .set({ ...rest, ...(passwordHash ? { password_hash: passwordHash } : {}), updated_at: sql`now()` })
    .where('car_device_id', '=', car_device_id)
    .execute();
}

export async function setDeviceDeleted(db: Db, carDeviceId: string, isDelete: boolean) {
  await db
    .updateTable('devices')
    .set({ is_delete: isDelete, updated_at: sql`now()` })
    .where('car_device_id', '=', carDeviceId)
    .execute();
}

/** The protocol of the terminal with this IMEI (deleted ones too); undefined when there is none. */
export async function findProtocolByImei(db: Db, carDataId: string): Promise<TerminalProtocol | undefined> {
  const row = await db.selectFrom('devices').select('protocol').where('car_data_id', '=', carDataId).executeTakeFirst();
  return row?.protocol;
}
