import { capabilities, managedRoles, type Actor } from '@fleet/contract';
import { sql, type SqlBool } from 'kysely';
import type { Db } from '../db/database.js';
import type { SelectionKey } from '../sessions/session.repository.js';

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

/**
 * Whether a record exists and lies in the actor's scope. Used for every
 * lookup by id: a record in another company is "not found", never a leak.
 */
export async function isVisible(db: Db, actor: Actor, kind: SelectionKey, id: string): Promise<boolean> {
  const company = companyScope(actor);
  const caps = capabilities(actor);
  switch (kind) {
    case 'account_id': {
      if (id === actor.account_id) return true;
      if (!caps.manageAccounts) return false;
      let q = db.selectFrom('accounts').select('account_id').where('account_id', '=', id);
      if (company !== null) q = q.where('company_id', '=', company);
      // A manager handles managers and common accounts only (docs/product.md §6).
      q = q.where('role', 'in', managedRoles(actor));
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

/** A stretch of time, open at either end where null. */
export interface TimeWindow {
  from: Date | null;
  to: Date | null;
}

/**
 * The stretches of time whose telemetry of a terminal the actor may read, or
 * null for all of it (a super admin, or a terminal that has only ever been
 * the company's). A company reads what the terminal sent while it was on one
 * of the company's live vehicles (`terminal_periods`), never what it sent for
 * a company it served before (docs/security.md). Call after the visibility check.
 */
export async function terminalWindows(db: Db, actor: Actor, carDataId: string): Promise<TimeWindow[] | null> {
  const company = companyScope(actor);
  if (company === null) return null;
  const rows = await db
    .selectFrom('terminal_periods')
    .select([sql<Date | null>`nullif(started_at, '-infinity')`.as('from'), 'ended_at as to'])
    .where('car_data_id', '=', carDataId)
    .where('company_id', '=', company)
    .orderBy('started_at')
    .execute();
  const merged: TimeWindow[] = [];
  for (const r of rows) {
    const w = { from: r.from === null ? null : new Date(r.from), to: r.to === null ? null : new Date(r.to) };
    const last = merged.at(-1);
    const touches = last && (last.to === null || (w.from !== null && w.from.getTime() <= last.to.getTime()));
    if (!last || !touches) merged.push(w);
    else if (last.to !== null && (w.to === null || w.to.getTime() > last.to.getTime())) last.to = w.to;
  }
  const all = merged.length === 1 && merged[0]!.from === null && merged[0]!.to === null;
  return all ? null : merged;
}

/** `recorded_at` within one of the windows (none: nothing); null windows: no condition. */
export function withinWindows(windows: readonly TimeWindow[]) {
  if (windows.length === 0) return sql<SqlBool>`false`;
  const one = (w: TimeWindow) =>
    sql`(${w.from === null ? sql`true` : sql`recorded_at >= ${w.from.toISOString()}`} and ${
      w.to === null ? sql`true` : sql`recorded_at < ${w.to.toISOString()}`
    })`;
  return sql<SqlBool>`(${sql.join(windows.map(one), sql` or `)})`;
}
