import { sql } from 'kysely';
import type { Db } from '../db/database.js';

/**
 * Failed-login limits, kept in the database so every server instance shares
 * them: 10 per minute per IP, 100 per hour per account name.
 */
export const LOGIN_LIMITS = { perIpPerMinute: 10, perUserPerHour: 100 } as const;

export async function isLoginLimited(db: Db, ip: string, username: string): Promise<boolean> {
  const row = await db
    .selectFrom('login_attempts')
    .select([
      sql<number>`count(*) FILTER (WHERE ip = ${ip} AND at > now() - interval '1 minute')::int`.as('by_ip'),
      sql<number>`count(*) FILTER (WHERE username = ${username} AND at > now() - interval '1 hour')::int`.as('by_user'),
    ])
    .where('succeeded', '=', false)
    .where('at', '>', sql<Date>`now() - interval '1 hour'`)
    .where((eb) => eb.or([eb('ip', '=', ip), eb('username', '=', username)]))
    .executeTakeFirstOrThrow();
  return row.by_ip >= LOGIN_LIMITS.perIpPerMinute || row.by_user >= LOGIN_LIMITS.perUserPerHour;
}

export async function recordLoginAttempt(db: Db, ip: string, username: string, succeeded: boolean) {
  await db.insertInto('login_attempts').values({ ip, username: username.toLowerCase(), succeeded }).execute();
}

/** Drops attempts older than a day; run from the maintenance timer. */
export async function pruneLoginAttempts(db: Db) {
  await db.deleteFrom('login_attempts').where('at', '<', sql<Date>`now() - interval '1 day'`).execute();
}
