import { capabilities, managedRoles, type Actor, type Capabilities } from '@fleet/contract';
import { sql, type Expression, type SqlBool } from 'kysely';
import type { Db } from '../db/database.js';
import type { SelectionKey } from '../sessions/session.repository.js';
import { mergeWindows, type TimeWindow } from './terminal-time.js';

/**
 * The company an actor is limited to, or null for a super admin who sees all.
 * A role 1-2 account without a company sees nothing: '' is never a company id
 * (a NUL sentinel made PostgreSQL refuse every query of such an account).
 */
export const companyScope = (actor: Actor): string | null =>
  capabilities(actor).allCompanies ? null : (actor.company_id ?? '');

/** No live vehicle of another company carries this terminal (by IMEI or terminal id). */
export const notOnOtherCompanysLiveCar = (
  db: Db,
  column: 'car_data_id' | 'car_device_id',
  id: string,
  company: string,
) =>
  sql<SqlBool>`not exists (${db
    .selectFrom('cars as o')
    .select('o.car_id')
    .where(`o.${column}`, '=', id)
    .where('o.is_delete', '=', false)
    .where(sql<SqlBool>`o.company_id is distinct from ${company}`)})`;

/** What the scope of a request is made of, decided once by `createAccess` (access.ts). */
export interface Scope extends Actor {
  caps: Capabilities;
  /** The company the caller is limited to; null for the super admin. */
  company: string | null;
  /**
   * The vehicle groups the caller is limited to within its company (a branch manager, docs/groups.md);
   * null: not limited. Empty: limited to no group, sees no vehicle.
   */
  groups: readonly string[] | null;
}

/**
 * The vehicle `carId` (a column reference) is in one of the groups (null: no condition). Every read of
 * vehicles by a group-limited caller adds it: lists, the map, the live stream, lookups by id.
 */
export function inGroups(carId: Expression<unknown>, groups: readonly string[] | null) {
  if (groups === null) return sql<SqlBool>`true`;
  if (groups.length === 0) return sql<SqlBool>`false`;
  return sql<SqlBool>`exists (select 1 from car_groups cg where cg.car_id = ${carId} and cg.group_id in (${sql.join(groups)}))`;
}

/** The vehicle `carId` is in the group a list or report is filtered by (null or undefined: no filter). */
export function inGroup(carId: Expression<unknown>, groupId: string | null | undefined) {
  if (!groupId) return sql<SqlBool>`true`;
  return sql<SqlBool>`exists (select 1 from car_groups cf where cf.car_id = ${carId} and cf.group_id = ${groupId})`;
}

/**
 * Whether a record exists and lies in the scope. Used for every lookup by id: a record in another
 * company is "not found", never a leak.
 */
export async function isVisible(db: Db, scope: Scope, kind: SelectionKey, id: string): Promise<boolean> {
  const { company, caps } = scope;
  switch (kind) {
    case 'account_id': {
      if (id === scope.account_id) return true;
      if (!caps.manageAccounts) return false;
      let q = db.selectFrom('accounts').select('account_id').where('account_id', '=', id);
      if (company !== null) q = q.where('company_id', '=', company);
      // A manager handles managers and common accounts only (docs/product.md §6).
      q = q.where('role', 'in', managedRoles(scope));
      return !!(await q.executeTakeFirst());
    }
    case 'company_id': {
      if (company !== null) return id === company;
      return !!(await db.selectFrom('companies').select('company_id').where('company_id', '=', id).executeTakeFirst());
    }
    case 'car_id':
    case 'car_data_id':
    case 'car_device_id': {
      const column = kind === 'car_id' ? 'car_id' : kind === 'car_data_id' ? 'car_data_id' : 'car_device_id';
      if (company === null && kind !== 'car_id') {
        const dev = kind === 'car_data_id' ? 'car_data_id' : 'car_device_id';
        return !!(await db.selectFrom('devices').select('car_device_id').where(dev, '=', id).executeTakeFirst());
      }
      let q = db.selectFrom('cars').select('car_id').where(column, '=', id);
      if (company !== null) q = q.where('company_id', '=', company);
      if (scope.groups !== null) q = q.where(inGroups(sql.ref('cars.car_id'), scope.groups));
      // A terminal moved from a company's deleted vehicle to another company's live one is no longer theirs.
      if (company !== null && column !== 'car_id') q = q.where(notOnOtherCompanysLiveCar(db, column, id, company));
      return !!(await q.executeTakeFirst());
    }
    case 'user_id': {
      let q = db.selectFrom('car_users').select('user_id').where('user_id', '=', id);
      if (company !== null) q = q.where('company_id', '=', company);
      return !!(await q.executeTakeFirst());
    }
  }
}

/**
 * The stretches of time whose telemetry of a terminal the company may read, or null for all of it (a
 * super admin, or a terminal that has only ever been the company's): what the terminal sent while it was
 * on one of the company's live vehicles (`terminal_periods`), never what it sent for a company it served
 * before (terminal-time.ts). Call after the visibility check.
 */
export async function terminalWindows(db: Db, company: string | null, carDataId: string): Promise<TimeWindow[] | null> {
  if (company === null) return null;
  const rows = await db
    .selectFrom('terminal_periods')
    .select([sql<Date | null>`nullif(started_at, '-infinity')`.as('from'), 'ended_at as to'])
    .where('car_data_id', '=', carDataId)
    .where('company_id', '=', company)
    .orderBy('started_at')
    .execute();
  return mergeWindows(rows);
}
