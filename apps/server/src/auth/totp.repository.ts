import { sql } from 'kysely';
import type { Db } from '../db/database.js';

/** The account's TOTP row: `secret` once enabled, `pending_secret` while being set up. */
export async function findTotp(db: Db, accountId: string) {
  return db
    .selectFrom('account_totp')
    .select(['secret', 'pending_secret'])
    .where('account_id', '=', accountId)
    .executeTakeFirst();
}

/** Starts (or restarts) the setup with a new pending secret; an enabled secret stays as it is. */
export async function savePendingSecret(db: Db, accountId: string, secret: string) {
  await db
    .insertInto('account_totp')
    .values({ account_id: accountId, pending_secret: secret, secret: null, enabled_at: null, last_step: null })
    .onConflict((oc) => oc.column('account_id').doUpdateSet({ pending_secret: secret, updated_at: sql`now()` }))
    .execute();
}

/**
 * Uses up a time step: true when no code of this or a later step was accepted before. One UPDATE,
 * so two requests with the same code cannot both pass.
 */
export async function consumeStep(db: Db, accountId: string, step: number): Promise<boolean> {
  const row = await db
    .updateTable('account_totp')
    .set({ last_step: step })
    .where('account_id', '=', accountId)
    .where((eb) => eb.or([eb('last_step', 'is', null), eb('last_step', '<', step)]))
    .returning('account_id')
    .executeTakeFirst();
  return row !== undefined;
}

/** Confirms the pending secret: it becomes the secret, with the step of the code that confirmed it used. */
export async function enablePendingSecret(db: Db, accountId: string, step: number): Promise<boolean> {
  const row = await db
    .updateTable('account_totp')
    .set({
      secret: sql`pending_secret`,
      pending_secret: null,
      enabled_at: sql`now()`,
      last_step: step,
      updated_at: sql`now()`,
    })
    .where('account_id', '=', accountId)
    .where('secret', 'is', null)
    .where('pending_secret', 'is not', null)
    .returning('account_id')
    .executeTakeFirst();
  return row !== undefined;
}

export async function deleteTotp(db: Db, accountId: string) {
  await db.deleteFrom('account_totp').where('account_id', '=', accountId).execute();
}

/** Whether the company requires TOTP of its accounts (false for no company). */
export async function companyRequiresTotp(db: Db, companyId: string | null): Promise<boolean> {
  if (companyId === null) return false;
  const row = await db
    .selectFrom('companies')
    .select('require_totp')
    .where('company_id', '=', companyId)
    .executeTakeFirst();
  return row?.require_totp ?? false;
}

export async function findCompanyTotpPolicy(db: Db, companyId: string) {
  return db
    .selectFrom('companies')
    .select(['company_id', 'require_totp'])
    .where('company_id', '=', companyId)
    .where('is_delete', '=', false)
    .executeTakeFirst();
}
