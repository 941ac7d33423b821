import { companySearchColumns, companySortColumns, type CompanyDetail, type CompanyForm } from '@fleet/contract';
import { sql } from 'kysely';
import type { z } from 'zod';
import type { Db } from '../db/database.js';
import {
  applyListFilter,
  applyListPage,
  countRows,
  iso,
  type ListConfig,
  type ListFilterInput,
  type PagingInput,
} from '../http/list-query.js';

type Column = (typeof companySortColumns)[number];

/** Companies are the super admin's alone: no company scope on this list. */
export const companyListConfig: ListConfig<Column> = {
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
};

const columns = ['c.company_id', 'c.company_name', 'c.name', 'c.address', 'c.phone', 'c.email', 'c.is_delete'] as const;
type Row = {
  company_id: string;
  company_name: string;
  name: string;
  address: string;
  phone: string;
  email: string;
  is_delete: boolean;
};
const toRow = ({ is_delete, ...r }: Row) => ({ ...r, isDelete: is_delete });

// Companies have no scope, but the list helper needs an access for scoped lists; the super admin is the only caller.
const filtered = (db: Db, filter: ListFilterInput) =>
  applyListFilter(db.selectFrom('companies as c'), companyListConfig, filter, null);

export const countCompanies = (db: Db, filter: ListFilterInput) => countRows(filtered(db, filter));

export async function listCompanies(db: Db, query: ListFilterInput & PagingInput) {
  const rows = await applyListPage(filtered(db, query).select(columns), companyListConfig, query).execute();
  return rows.map(toRow);
}

const liveCount = (table: 'accounts' | 'car_users' | 'cars') =>
  sql<number>`(select count(*)::int from ${sql.table(table)} t where t.company_id = c.company_id and not t.is_delete)`;

export async function findCompany(db: Db, companyId: string): Promise<CompanyDetail | undefined> {
  const row = await db
    .selectFrom('companies as c')
    .select([...columns, 'c.created_at', 'c.updated_at'])
    .select([
      liveCount('accounts').as('account_count'),
      liveCount('car_users').as('user_count'),
      liveCount('cars').as('car_count'),
    ])
    .where('c.company_id', '=', companyId)
    .executeTakeFirst();
  if (!row) return undefined;
  const { created_at, updated_at, account_count, user_count, car_count, ...rest } = row;
  return {
    ...toRow(rest),
    account_count,
    user_count,
    car_count,
    created_at: iso(created_at),
    updated_at: iso(updated_at),
  };
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
