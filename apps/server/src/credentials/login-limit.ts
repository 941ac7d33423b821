import { sql } from 'kysely';
import type { Db } from '../db/database.js';

/**
 * Limits on every password check (sign-in, password change, step-up, TOTP), kept in the database so
 * every server instance shares them. Failures: 10 a minute per IP, 100 an hour per account. Every
 * check, successful or not (each costs a scrypt): 60 a minute per IP, 20 a minute per account.
 */
export const LOGIN_LIMITS = {
  perIpPerMinute: 10,
  perUserPerHour: 100,
  checksPerIpPerMinute: 60,
  checksPerAccountPerMinute: 20,
} as const;

/**
 * The counter a login name belongs to: the account it reaches (its id, or its e-mail in any case),
 * so guesses by id and by e-mail share one; the name itself when it reaches no account.
 */
const counterOf = (name: string) =>
  sql<string>`coalesce((SELECT lower(a.account_id) FROM accounts a
    WHERE lower(a.account_id) = ${name} OR lower(a.email) = ${name} ORDER BY a.account_id LIMIT 1), ${name})`;

async function isLoginLimited(db: Db, ip: string, counter: string): Promise<boolean> {
  const row = await db
    .selectFrom('login_attempts')
    .select([
      sql<number>`count(*) FILTER (WHERE NOT succeeded AND ip = ${ip} AND at > now() - interval '1 minute')::int`.as(
        'failed_ip',
      ),
      sql<number>`count(*) FILTER (WHERE NOT succeeded AND username = ${counter})::int`.as('failed_account'),
      sql<number>`count(*) FILTER (WHERE ip = ${ip} AND at > now() - interval '1 minute')::int`.as('checks_ip'),
      sql<number>`count(*) FILTER (WHERE username = ${counter} AND at > now() - interval '1 minute')::int`.as(
        'checks_account',
      ),
    ])
    .where('at', '>', sql<Date>`now() - interval '1 hour'`)
    .where((eb) => eb.or([eb('ip', '=', ip), eb('username', '=', counter)]))
    .executeTakeFirstOrThrow();
  // The counts include the attempt being made, hence `>`.
  return (
    row.failed_ip > LOGIN_LIMITS.perIpPerMinute ||
    row.failed_account > LOGIN_LIMITS.perUserPerHour ||
    row.checks_ip > LOGIN_LIMITS.checksPerIpPerMinute ||
    row.checks_account > LOGIN_LIMITS.checksPerAccountPerMinute
  );
}

/**
 * Records a password check as failed before the slow scrypt, then counts: the insert is committed
 * before the count, so of simultaneous attempts the last to insert sees all the others and no burst
 * gets past a limit (counting first let one through). `username` is a login name or an account id.
 * Returns the attempt's id, or undefined (and forgets it) when over a limit.
 */
export async function beginLoginAttempt(db: Db, ip: string, username: string): Promise<number | undefined> {
  const { id, username: counter } = await db
    .insertInto('login_attempts')
    .values({ ip, username: counterOf(username.toLowerCase()), succeeded: false })
    .returning(['id', 'username'])
    .executeTakeFirstOrThrow();
  if (!(await isLoginLimited(db, ip, counter))) return id;
  await db.deleteFrom('login_attempts').where('id', '=', id).execute();
  return undefined;
}

export async function markLoginSucceeded(db: Db, attemptId: number) {
  await db.updateTable('login_attempts').set({ succeeded: true }).where('id', '=', attemptId).execute();
}

/** Drops attempts older than a day; run from the maintenance timer. */
export async function pruneLoginAttempts(db: Db) {
  await db
    .deleteFrom('login_attempts')
    .where('at', '<', sql<Date>`now() - interval '1 day'`)
    .execute();
}
