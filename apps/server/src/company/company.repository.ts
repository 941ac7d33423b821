import { companySearchColumns, companySortColumns, type CompanyDetail, type CompanyForm } from '@fleet/contract';
import { sql } from 'kysely';
import type { z } from 'zod';
import type { Db } from '../db/database.js';
import { defineList, type ListFilterInput, type PagingInput } from '../http/list-query.js';

const columns = [
  'c.company_id',
  'c.company_name',
  'c.name',
  'c.address',
  'c.phone',
  'c.email',
  'c.is_delete as isDelete',
] as const;

/** Companies are the super admin's alone: no company scope on this list (the route allows the super admin only). */
const companyList = defineList({
  columns: {
    company_id: { expr: sql.ref('c.company_id') },
    company_name: { expr: sql.ref('c.company_name') },
    name: { expr: sql.ref('c.name') },
    address: { expr: sql.ref('c.address') },
    phone: { expr: sql.ref('c.phone') },
    email: { expr: sql.ref('c.email') },
  },
  search: companySearchColumns,
  sortable: companySortColumns,
  primaryKey: 'company_id',
  deleted: sql.ref('c.is_delete'),
  from: (db: Db) => db.selectFrom('companies as c'),
  rows: (db: Db, p) => db.selectFrom(p).innerJoin('companies as c', 'c.company_id', 'p.company_id').select(columns),
});
const superAdmin = { company: null };

export const countCompanies = (db: Db, filter: ListFilterInput) => companyList.count(db, superAdmin, filter);

export const listCompanies = (db: Db, query: ListFilterInput & PagingInput) => companyList.page(db, superAdmin, query);

const liveCount = (table: 'accounts' | 'car_users' | 'cars') =>
  sql<number>`(select count(*)::int from ${sql.table(table)} t where t.company_id = c.company_id and not t.is_delete)`;

export function findCompany(db: Db, companyId: string): Promise<z.input<typeof CompanyDetail> | undefined> {
  return db
    .selectFrom('companies as c')
    .select([...columns, 'c.created_at', 'c.updated_at'])
    .select([
      liveCount('accounts').as('account_count'),
      liveCount('car_users').as('user_count'),
      liveCount('cars').as('car_count'),
    ])
    .where('c.company_id', '=', companyId)
    .executeTakeFirst();
}

/** A company's name; undefined for an unknown company. */
export async function companyNameOf(db: Db, companyId: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('companies')
    .select('company_name')
    .where('company_id', '=', companyId)
    .executeTakeFirst();
  return row?.company_name;
}

/** A live company's terminal-identity settings (docs/security.md "Terminal identity"). */
export const findTerminalPolicy = (db: Db, companyId: string) =>
  db
    .selectFrom('companies')
    .select(['company_id', 'alert_new_terminal_address'])
    .where('company_id', '=', companyId)
    .where('is_delete', '=', false)
    .executeTakeFirst();

export async function setTerminalPolicy(db: Db, companyId: string, alertNewAddress: boolean) {
  await db
    .updateTable('companies')
    .set({ alert_new_terminal_address: alertNewAddress, updated_at: sql`now()` })
    .where('company_id', '=', companyId)
    .execute();
}

export async function insertCompany(db: Db, info: z.output<typeof CompanyForm>) {
  await db.insertInto('companies').values(info).execute();
}

export async function updateCompany(db: Db, info: z.output<typeof CompanyForm>) {
  const { company_id, ...values } = info;
  const r = await db
    .updateTable('companies')
    .set({ ...values, updated_at: sql`now()` })
    .where('company_id', '=', company_id)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

export async function setCompanyDeleted(db: Db, companyId: string, isDelete: boolean) {
  await db
    .updateTable('companies')
    .set({ is_delete: isDelete, updated_at: sql`now()` })
    .where('company_id', '=', companyId)
    .execute();
}

/** Whether the company requires TOTP of its accounts (auth/totp.routes.ts decides who may set it). */
export async function setCompanyTotpPolicy(db: Db, companyId: string, required: boolean) {
  await db
    .updateTable('companies')
    .set({ require_totp: required, updated_at: sql`now()` })
    .where('company_id', '=', companyId)
    .execute();
}
