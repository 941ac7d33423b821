import { sql } from 'kysely';
import type { Db } from '../db/database.js';

/**
 * Request limits, in the database so every instance shares them: mails per
 * address per hour (over it, the same answer and no mail), and requests per
 * IP per hour (over it, 429).
 */
export const RESET_LIMITS = { mailsPerEmailPerHour: 3, requestsPerIpPerHour: 20 } as const;

/**
 * Serialises the requests for one address and from one IP until the transaction ends, so that
 * count-then-record cannot race: simultaneous requests are counted one after the other. Two lock
 * classes keep addresses and IPs apart; every request takes the address first, so no cycle forms.
 */
export async function lockRequestCounters(trx: Db, email: string, ip: string): Promise<void> {
  await sql`SELECT pg_advisory_xact_lock(1, hashtext(${email}))`.execute(trx);
  await sql`SELECT pg_advisory_xact_lock(2, hashtext(${ip}))`.execute(trx);
}

export async function countRecentRequests(db: Db, email: string, ip: string) {
  return db
    .selectFrom('password_reset_requests')
    .select([
      sql<number>`count(*) FILTER (WHERE email = ${email})::int`.as('byEmail'),
      sql<number>`count(*) FILTER (WHERE ip = ${ip})::int`.as('byIp'),
    ])
    .where('at', '>', sql<Date>`now() - interval '1 hour'`)
    .where((eb) => eb.or([eb('email', '=', email), eb('ip', '=', ip)]))
    .executeTakeFirstOrThrow();
}

export async function recordRequest(db: Db, email: string, ip: string): Promise<void> {
  await db.insertInto('password_reset_requests').values({ email, ip }).execute();
}

export async function findAccountByEmail(db: Db, email: string) {
  return db
    .selectFrom('accounts')
    .select(['account_id', 'name', 'email'])
    .where(sql`lower(email)`, '=', email.toLowerCase())
    .where('is_delete', '=', false)
    .executeTakeFirst();
}

/** Stores the SHA-256 of a new token; returns when it expires. */
export async function createResetToken(db: Db, accountId: string, tokenHash: string, minutes: number): Promise<Date> {
  const row = await db
    .insertInto('password_reset_tokens')
    .values({
      token_hash: tokenHash,
      account_id: accountId,
      expires_at: sql`now() + make_interval(mins => ${minutes})`,
      used_at: null,
    })
    .returning('expires_at')
    .executeTakeFirstOrThrow();
  return new Date(row.expires_at);
}

/**
 * Uses a token up, atomically: only a live, unused token yields its account,
 * so two requests racing with one link cannot both succeed.
 */
export async function consumeResetToken(db: Db, tokenHash: string): Promise<string | undefined> {
  const row = await db
    .updateTable('password_reset_tokens')
    .set({ used_at: sql`now()` })
    .where('token_hash', '=', tokenHash)
    .where('used_at', 'is', null)
    .where('expires_at', '>', sql<Date>`now()`)
    .returning('account_id')
    .executeTakeFirst();
  return row?.account_id;
}

/** Whether a token can still be used, and if not why: unknown, already used, or expired. */
export async function tokenStatus(db: Db, tokenHash: string): Promise<'live' | 'invalid' | 'used' | 'expired'> {
  const row = await db
    .selectFrom('password_reset_tokens')
    .select(['used_at', sql<boolean>`expires_at <= now()`.as('expired')])
    .where('token_hash', '=', tokenHash)
    .executeTakeFirst();
  if (!row) return 'invalid';
  return row.used_at !== null ? 'used' : row.expired ? 'expired' : 'live';
}

/** Once a password is set, every other outstanding link of the account dies too. */
export async function retireAccountTokens(db: Db, accountId: string): Promise<void> {
  await db
    .updateTable('password_reset_tokens')
    .set({ used_at: sql`now()` })
    .where('account_id', '=', accountId)
    .where('used_at', 'is', null)
    .execute();
}

export async function accountName(db: Db, accountId: string) {
  return db
    .selectFrom('accounts')
    .select(['account_id', 'name', 'email'])
    .where('account_id', '=', accountId)
    .executeTakeFirstOrThrow();
}

export async function prunePasswordReset(db: Db): Promise<void> {
  await db
    .deleteFrom('password_reset_requests')
    .where('at', '<', sql<Date>`now() - interval '1 day'`)
    .execute();
  await db
    .deleteFrom('password_reset_tokens')
    .where('expires_at', '<', sql<Date>`now() - interval '1 day'`)
    .execute();
}
