import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from '../db/database.js';

/** The one writer of vehicle_groups, car_groups, account_group_limits and account_groups (docs/groups.md). */

const groupColumns = [
  'g.group_id',
  'g.company_id',
  'g.name',
  'g.created_at',
  'g.updated_at',
  sql<string | null>`(SELECT c.company_name FROM companies c WHERE c.company_id = g.company_id)`.as('company_name'),
  sql<number>`(SELECT count(*) FROM car_groups cg JOIN cars v ON v.car_id = cg.car_id
    WHERE cg.group_id = g.group_id AND NOT v.is_delete)::int`.as('car_count'),
] as const;

/** A company's groups (null: every company's), by name; `only`: just these groups (a group-limited reader). */
export async function listGroups(db: Db, company: string | null, only: readonly string[] | null) {
  let q = db.selectFrom('vehicle_groups as g').select(groupColumns);
  if (company !== null) q = q.where('g.company_id', '=', company);
  if (only !== null) q = only.length ? q.where('g.group_id', 'in', only) : q.where(sql<boolean>`false`);
  return q.orderBy('g.name').orderBy('g.group_id').execute();
}

/** A group within the company scope (null: any), or undefined. */
export async function findGroup(db: Db, groupId: string, company: string | null) {
  let q = db.selectFrom('vehicle_groups as g').select(['g.group_id', 'g.company_id', 'g.name']);
  if (company !== null) q = q.where('g.company_id', '=', company);
  return q.where('g.group_id', '=', groupId).executeTakeFirst();
}

/** Whether the company has another group of that name. */
export async function nameTaken(db: Db, company: string, name: string, except?: string) {
  let q = db.selectFrom('vehicle_groups').select('group_id').where('company_id', '=', company).where('name', '=', name);
  if (except) q = q.where('group_id', '<>', except);
  return !!(await q.executeTakeFirst());
}

export async function insertGroup(db: Db, company: string, name: string, now: Date): Promise<string> {
  const group_id = randomUUID();
  await db
    .insertInto('vehicle_groups')
    .values({ group_id, company_id: company, name, created_at: now, updated_at: now })
    .execute();
  return group_id;
}

export async function renameGroup(db: Db, groupId: string, name: string, now: Date) {
  await db.updateTable('vehicle_groups').set({ name, updated_at: now }).where('group_id', '=', groupId).execute();
}

/** Deletes a group; its vehicles and accounts lose it (an account limited to it alone then sees nothing). */
export async function deleteGroup(db: Db, groupId: string) {
  const accounts = await db.selectFrom('account_groups').select('account_id').where('group_id', '=', groupId).execute();
  await db.deleteFrom('vehicle_groups').where('group_id', '=', groupId).execute();
  return accounts.map((a) => a.account_id);
}

/** Of these groups, the ones of the company. */
export async function companyGroupIds(db: Db, company: string, ids: readonly string[]): Promise<Set<string>> {
  if (!ids.length) return new Set();
  const rows = await db
    .selectFrom('vehicle_groups')
    .select('group_id')
    .where('company_id', '=', company)
    .where('group_id', 'in', ids)
    .execute();
  return new Set(rows.map((r) => r.group_id));
}

/** A vehicle's groups, by name. */
export async function carGroupList(db: Db, carId: string) {
  return db
    .selectFrom('car_groups as cg')
    .innerJoin('vehicle_groups as g', 'g.group_id', 'cg.group_id')
    .select(['g.group_id', 'g.name'])
    .where('cg.car_id', '=', carId)
    .orderBy('g.name')
    .execute();
}

/** The vehicle's company and deletion flag, read in the transaction that changes its groups. */
export async function carForGroups(db: Db, carId: string) {
  return db
    .selectFrom('cars')
    .select(['car_id', 'company_id', 'is_delete'])
    .where('car_id', '=', carId)
    .executeTakeFirst();
}

/** Replaces a vehicle's groups (already checked to be its company's). */
export async function replaceCarGroups(db: Db, carId: string, groupIds: readonly string[]) {
  await db.deleteFrom('car_groups').where('car_id', '=', carId).execute();
  if (groupIds.length)
    await db
      .insertInto('car_groups')
      .values(groupIds.map((group_id) => ({ car_id: carId, group_id })))
      .execute();
}

/** Of these vehicles, the live ones of the company. */
export async function companyLiveCarIds(db: Db, company: string, carIds: readonly string[]) {
  const rows = await db
    .selectFrom('cars')
    .select('car_id')
    .where('company_id', '=', company)
    .where('is_delete', '=', false)
    .where('car_id', 'in', carIds)
    .execute();
  return rows.map((r) => r.car_id);
}

/** Adds the vehicles to a group; those already in it stay. Returns how many joined. */
export async function addCarsToGroup(db: Db, groupId: string, carIds: readonly string[]) {
  if (!carIds.length) return 0;
  const rows = await db
    .insertInto('car_groups')
    .values(carIds.map((car_id) => ({ car_id, group_id: groupId })))
    .onConflict((oc) => oc.doNothing())
    .returning('car_id')
    .execute();
  return rows.length;
}

/** The account's company, or undefined for no such account. */
export async function accountCompanyOf(db: Db, accountId: string) {
  return db.selectFrom('accounts').select('company_id').where('account_id', '=', accountId).executeTakeFirst();
}

/** An account's limit: null, not limited; else its groups. */
export async function accountGroupIds(db: Db, accountId: string): Promise<string[] | null> {
  const limited = await db
    .selectFrom('account_group_limits')
    .select('account_id')
    .where('account_id', '=', accountId)
    .executeTakeFirst();
  if (!limited) return null;
  const rows = await db
    .selectFrom('account_groups')
    .select('group_id')
    .where('account_id', '=', accountId)
    .orderBy('group_id')
    .execute();
  return rows.map((r) => r.group_id);
}

/** Sets an account's limit (null: the whole company). */
export async function setAccountGroups(db: Db, accountId: string, groupIds: readonly string[] | null) {
  await db.deleteFrom('account_group_limits').where('account_id', '=', accountId).execute();
  if (groupIds === null) return;
  await db.insertInto('account_group_limits').values({ account_id: accountId }).execute();
  if (groupIds.length)
    await db
      .insertInto('account_groups')
      .values(groupIds.map((group_id) => ({ account_id: accountId, group_id })))
      .execute();
}
