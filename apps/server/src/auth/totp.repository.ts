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
 * so two requests with the same code cannot both pass. (False means the code was used already, or a
 * later one was: the account's next code is the one to type.)
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

/** Replaces the account's recovery codes (used or not) by these hashes. */
export async function replaceRecoveryCodes(db: Db, accountId: string, hashes: string[]) {
  await db.deleteFrom('account_totp_recovery_codes').where('account_id', '=', accountId).execute();
  await db
    .insertInto('account_totp_recovery_codes')
    .values(hashes.map((code_hash) => ({ account_id: accountId, code_hash, used_at: null })))
    .execute();
}

/**
 * Uses up a recovery code: 'ok' when it was one of the account's unused codes (marked used in the same
 * UPDATE, so two requests cannot both pass), 'used' when it was used before, 'wrong' otherwise.
 */
export async function consumeRecoveryCode(db: Db, accountId: string, hash: string): Promise<'ok' | 'used' | 'wrong'> {
  const used = await db
    .updateTable('account_totp_recovery_codes')
    .set({ used_at: sql`now()` })
    .where('account_id', '=', accountId)
    .where('code_hash', '=', hash)
    .where('used_at', 'is', null)
    .returning('account_id')
    .executeTakeFirst();
  if (used) return 'ok';
  const known = await db
    .selectFrom('account_totp_recovery_codes')
    .select('account_id')
    .where('account_id', '=', accountId)
    .where('code_hash', '=', hash)
    .executeTakeFirst();
  return known ? 'used' : 'wrong';
}

/** How many of the account's recovery codes are still unused. */
export async function countRecoveryCodesLeft(db: Db, accountId: string): Promise<number> {
  const row = await db
    .selectFrom('account_totp_recovery_codes')
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .where('account_id', '=', accountId)
    .where('used_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
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
