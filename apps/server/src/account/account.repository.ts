import { accountSearchColumns, accountSortColumns, isAdministrator, managedRoles, roleLabels } from '@fleet/contract';
import { sql, type RawBuilder } from 'kysely';
import type { Access } from '../access/access.js';
import type { Db } from '../db/database.js';
import { defineList, type ListFilterInput, type ListScope, type PagingInput } from '../http/list-query.js';

/**
 * Accounts the caller manages: their company's (all for the super admin); a
 * manager (role 1) never sees role 0 accounts (docs/product.md §6).
 */
const managed = (db: Db, access: Pick<Access, 'company' | 'role'>) => {
  let q = db.selectFrom('accounts as a');
  const company = access.company;
  if (company !== null) q = q.where('a.company_id', '=', company);
  return isAdministrator(access) ? q : q.where(inRoles(sql.ref('a.role'), managedRoles(access)));
};

/** `column IN (roles)`, false for no role (Kysely cannot write an empty IN list). */
const inRoles = (column: RawBuilder<unknown>, roles: readonly number[]) =>
  roles.length > 0 ? sql<boolean>`${column} IN (${sql.join(roles)})` : sql<boolean>`false`;

/** A list row's columns: the contract's AccountRow, nothing it would strip. */
const rowColumns = [
  'a.account_id',
  'a.name',
  'a.email',
  'a.role',
  'a.company_id',
  'a.company_name',
  sql<boolean>`account_engine_right(a.engine_control, a.role)`.as('engine_control'),
  'a.is_delete as isDelete',
] as const;
/** An account's detail: its row and its times. */
const columns = [...rowColumns, 'a.created_at', 'a.updated_at'] as const;

const accountList = defineList({
  fast: true,
  columns: {
    account_id: { expr: sql.ref('a.account_id') },
    name: { expr: sql.ref('a.name'), key: { expr: sql.ref('a.name_key'), bigrams: sql.ref('a.name_key_bigrams') } },
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
  scope: (caller: ListScope & Pick<Access, 'role'>) => ({ company: caller.company, role: caller.role }),
  from: (db: Db, scope: ListScope & Pick<Access, 'role'>, _filter: ListFilterInput) => managed(db, scope),
  // Counted when written by company, role and deletion flag (migration list_counts): the roles `managed` keeps.
  counted: {
    rows: (db: Db, scope: ListScope & Pick<Access, 'role'>) => {
      const rows = db.selectFrom('list_counts as t').where('t.list', '=', 'accounts');
      return isAdministrator(scope) ? rows : rows.where(inRoles(sql.ref('t.role'), managedRoles(scope)));
    },
    holds: () => true,
  },
  rows: (db: Db, p) => db.selectFrom(p).innerJoin('accounts as a', 'a.account_id', 'p.account_id').select(rowColumns),
});

export const countAccounts = (db: Db, access: Access, filter: ListFilterInput) => accountList.count(db, access, filter);

export const listAccounts = (db: Db, access: Access, query: ListFilterInput & PagingInput) =>
  accountList.page(db, access, query);

/** An account the caller manages (deleted ones too), or undefined. */
export const findManagedAccount = (db: Db, access: Access, accountId: string) =>
  managed(db, access).select(columns).where('a.account_id', '=', accountId).executeTakeFirst();

/** Any account by id, no scope: for one's own account. */
export const findAccount = (db: Db, accountId: string) =>
  db.selectFrom('accounts as a').select(columns).where('a.account_id', '=', accountId).executeTakeFirst();

/** A live account signing in, by its id or its e-mail address (any case), with what the sign-in checks. */
export const findAccountSigningIn = (db: Db, username: string) =>
  db
    .selectFrom('accounts')
    .select(['account_id', 'name', 'role', 'company_id', 'password_hash'])
    .where('is_delete', '=', false)
    .where((eb) => eb.or([eb('account_id', '=', username), eb(sql`lower(email)`, '=', username.toLowerCase())]))
    .executeTakeFirst();

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
