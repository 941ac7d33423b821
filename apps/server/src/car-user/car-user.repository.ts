import {
  carUserSearchColumns,
  carUserSortColumns,
  customerStates,
  paymentDelays,
  type CarUserDetail,
  type CarUserFormValues,
} from '@fleet/contract';
import { sql, type SqlBool } from 'kysely';
import type { z } from 'zod';
import { moveCustomerCars } from '../car/car.repository.js';
import type { Db } from '../db/database.js';
import { defineList, type ListFilterInput, type ListScope, type PagingInput } from '../http/list-query.js';
import type { Access } from '../access/access.js';

const labelsOf = (codes: Record<number, { label: string }>) =>
  Object.fromEntries(Object.entries(codes).map(([k, v]) => [k, v.label]));

/** The customer's first live vehicle. */
const liveCarId = sql<
  string | null
>`(select min(c.car_id) from cars c where c.user_id = u.user_id and not c.is_delete)`;
const base = (db: Db) => db.selectFrom('car_users as u');

export interface CarUserListFilter extends ListFilterInput {
  isRegistered?: boolean | null | undefined;
}

const carUserList = defineList({
  fast: true,
  columns: {
    user_id: { expr: sql.ref('u.user_id') },
    // Stored on the customer (migration list_sort_keys): the generated full name, the company's name kept by triggers.
    name: {
      expr: sql.ref('u.full_name'),
      key: { expr: sql.ref('u.full_name_key'), bigrams: sql.ref('u.full_name_key_bigrams') },
    },
    company_name: { expr: sql.ref('u.company_name') },
    merchant: { expr: sql.ref('u.merchant') },
    payment_log: { expr: sql.ref('u.payment_log'), labels: labelsOf(paymentDelays) },
    state: { expr: sql.ref('u.state'), labels: labelsOf(customerStates) },
  },
  search: carUserSearchColumns,
  sortable: carUserSortColumns,
  primaryKey: 'user_id',
  deleted: sql.ref('u.is_delete'),
  company: sql.ref('u.company_id'),
  from: (db: Db, _scope: ListScope, filter: CarUserListFilter) =>
    typeof filter.isRegistered === 'boolean'
      ? base(db).where(sql<SqlBool>`(${liveCarId} is not null) = ${filter.isRegistered}`)
      : base(db),
  // Counted when written (migration list_counts), unless narrowed to those with (or without) a live vehicle.
  counted: {
    rows: (db: Db) => db.selectFrom('list_counts as t').where('t.list', '=', 'car_users'),
    holds: (filter: CarUserListFilter) => typeof filter.isRegistered !== 'boolean',
  },
  rows: (db: Db, p) =>
    db
      .selectFrom(p)
      .innerJoin('car_users as u', 'u.user_id', 'p.user_id')
      .select([
        'u.user_id',
        'u.first_name',
        'u.name',
        'u.company_id',
        'u.company_name',
        'u.merchant',
        'u.payment_log',
        'u.state',
        'u.is_delete as isDelete',
        liveCarId.as('car_id'),
      ]),
});

export const countCarUsers = carUserList.count;

/** A page of customers; the vehicle subquery runs for the page's rows only (defineList's deferred join). */
export const listCarUsers = (db: Db, access: Access, query: CarUserListFilter & PagingInput) =>
  carUserList.page(db, access, query);

/** A customer within the company scope (null: all), deleted ones included. */
export async function findCarUser(
  db: Db,
  userId: string,
  scope: string | null,
): Promise<z.input<typeof CarUserDetail> | undefined> {
  let q = base(db)
    .selectAll('u')
    .select([sql<string | null>`to_char(u.birthday, 'YYYY-MM-DD')`.as('birthday_text'), liveCarId.as('car_id')])
    .where('u.user_id', '=', userId);
  if (scope !== null) q = q.where('u.company_id', '=', scope);
  const row = await q.executeTakeFirst();
  if (!row) return undefined;
  const cars = await db
    .selectFrom('cars')
    .select(['car_id', 'car_number', 'car_type', 'car_device_id', 'car_data_id', 'is_delete as isDelete'])
    .where('user_id', '=', userId)
    .orderBy('car_id')
    .execute();
  const {
    birthday_text,
    is_delete,
    full_name: _fullName,
    full_name_key: _key,
    full_name_key_bigrams: _keyBigrams,
    ...rest
  } = row;
  return { ...rest, birthday: birthday_text, isDelete: is_delete, cars };
}

export async function carUserExists(db: Db, userId: string) {
  return !!(await db.selectFrom('car_users').select('user_id').where('user_id', '=', userId).executeTakeFirst());
}

export async function hasLiveCar(db: Db, userId: string) {
  return !!(await db
    .selectFrom('cars')
    .select('car_id')
    .where('user_id', '=', userId)
    .where('is_delete', '=', false)
    .executeTakeFirst());
}

export async function insertCarUser(db: Db, info: CarUserFormValues) {
  await db.insertInto('car_users').values(info).execute();
}

/** Updates a customer; their vehicles follow them to a new company. */
export async function updateCarUser(db: Db, info: CarUserFormValues) {
  const { user_id, ...values } = info;
  await db
    .updateTable('car_users')
    .set({ ...values, updated_at: sql`now()` })
    .where('user_id', '=', user_id)
    .execute();
  await moveCustomerCars(db, user_id, info.company_id);
}

export async function setCarUserDeleted(db: Db, userId: string, isDelete: boolean) {
  await db
    .updateTable('car_users')
    .set({ is_delete: isDelete, updated_at: sql`now()` })
    .where('user_id', '=', userId)
    .execute();
}
