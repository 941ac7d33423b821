import { accountSearchColumns, accountSortColumns, roleLabels, type AccountDetail } from '@fleet/contract';
import { sql } from 'kysely';
import type { Access } from '../access/access.js';
import type { Db } from '../db/database.js';
import {
  applyListFilter,
  applyListOrder,
  applyListPage,
  countRows,
  iso,
  type ListConfig,
  type ListFilterInput,
  type PagingInput,
} from '../http/list-query.js';

type Column = (typeof accountSortColumns)[number];

export const accountListConfig: ListConfig<Column> = {
  columns: {
    account_id: { expr: sql.ref('a.account_id') },
    name: { expr: sql.ref('a.name'), bigrams: sql.ref('a.name_bigrams') },
    email: { expr: sql.ref('a.email') },
    role: { expr: sql.ref('a.role'), labels: roleLabels },
    // The company's name stored on the account, kept by triggers (migration list_sort_keys).
    company_name: { expr: sql.ref('a.company_name') },
  },
  search: accountSearchColumns,
  sortable: accountSortColumns,
  primaryKey: 'account_id',
  deleted: sql.ref('a.is_delete'),
  company: sql.ref('a.company_id'),
};

/**
 * Accounts the caller manages: their company's (all for the super admin); a
 * manager (role 1) never sees role 0 accounts (ARCHITECTURE.md).
 */
const managed = (db: Db, access: Access) => {
  let q = db.selectFrom('accounts as a');
  const company = access.company;
  if (company !== null) q = q.where('a.company_id', '=', company);
  if (access.role !== 0) q = q.where('a.role', 'in', [1, 2]);
  return q;
};

const columns = [
  'a.account_id',
  'a.name',
  'a.email',
  'a.role',
  'a.company_id',
  'a.company_name',
  sql<boolean>`coalesce(a.engine_control, a.role <= 1)`.as('engine_control'),
  'a.is_delete',
  'a.created_at',
  'a.updated_at',
] as const;

const toDetail = (r: {
  account_id: string;
  name: string;
  email: string;
  role: number;
  company_id: string | null;
  company_name: string | null;
  engine_control: boolean;
  is_delete: boolean;
  created_at: Date;
  updated_at: Date;
}): AccountDetail => ({
  account_id: r.account_id,
  name: r.name,
  email: r.email,
  role: r.role,
  company_id: r.company_id,
  company_name: r.company_name,
  engine_control: r.engine_control,
  isDelete: r.is_delete,
  created_at: iso(r.created_at),
  updated_at: iso(r.updated_at),
});

const filtered = (db: Db, access: Access, filter: ListFilterInput) =>
  applyListFilter(managed(db, access), accountListConfig, filter, access.company);

export const countAccounts = (db: Db, access: Access, filter: ListFilterInput) =>
  countRows(filtered(db, access, filter));

export async function listAccounts(db: Db, access: Access, query: ListFilterInput & PagingInput) {
  // Deferred join: the page's ids through the narrowest index, then its 20 rows in the same order.
  const page = applyListPage(filtered(db, access, query).select('a.account_id'), accountListConfig, query).as('p');
  const q = db.selectFrom(page).innerJoin('accounts as a', 'a.account_id', 'p.account_id').select(columns);
  const rows = await applyListOrder(q, accountListConfig, query).execute();
  return rows.map(toDetail);
}

/** An account the caller manages (deleted ones too), or undefined. */
export async function findManagedAccount(db: Db, access: Access, accountId: string) {
  const row = await managed(db, access).select(columns).where('a.account_id', '=', accountId).executeTakeFirst();
  return row && toDetail(row);
}

/** Any account by id, no scope: for one's own account. */
export async function findAccount(db: Db, accountId: string) {
  const row = await db
    .selectFrom('accounts as a')
    .select(columns)
    .where('a.account_id', '=', accountId)
    .executeTakeFirst();
  return row && toDetail(row);
}

export async function findPasswordHash(db: Db, accountId: string) {
  const row = await db
    .selectFrom('accounts')
    .select('password_hash')
    .where('account_id', '=', accountId)
    .executeTakeFirst();
  return row?.password_hash;
}

export async function accountExists(db: Db, item: 'account_id' | 'email', value: string, exceptId?: string) {
  let q = db.selectFrom('accounts').select('account_id');
  q =
    item === 'email'
      ? q.where(sql`lower(email)`, '=', value.trim().toLowerCase())
      : q.where('account_id', '=', value.trim());
  if (exceptId) q = q.where('account_id', '<>', exceptId);
  return !!(await q.executeTakeFirst());
}

export interface AccountValues {
  account_id: string;
  name: string;
  email: string;
  role: number;
  company_id: string | null;
  engine_control: boolean;
}

export async function insertAccount(db: Db, values: AccountValues, passwordHash: string) {
  await db
    .insertInto('accounts')
    .values({ ...values, password_hash: passwordHash })
    .execute();
}

export async function updateAccount(
  db: Db,
  accountId: string,
  values: Partial<AccountValues> & { password_hash?: string },
) {
  await db
    .updateTable('accounts')
    .set({ ...values, updated_at: sql`now()` })
    .where('account_id', '=', accountId)
    .execute();
}

export async function setAccountDeleted(db: Db, accountId: string, isDelete: boolean) {
  await db
    .updateTable('accounts')
    .set({ is_delete: isDelete, updated_at: sql`now()` })
    .where('account_id', '=', accountId)
    .execute();
}
