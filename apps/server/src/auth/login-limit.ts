import { sql } from 'kysely';
import type { Db } from '../db/database.js';

/**
 * Failed-login limits, kept in the database so every server instance shares
 * them: 10 per minute per IP, 100 per hour per account name.
 */
export const LOGIN_LIMITS = { perIpPerMinute: 10, perUserPerHour: 100 } as const;

async function isLoginLimited(db: Db, ip: string, username: string): Promise<boolean> {
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
  // The counts include the attempt being made, hence `>`.
  return row.by_ip > LOGIN_LIMITS.perIpPerMinute || row.by_user > LOGIN_LIMITS.perUserPerHour;
}

/**
 * Records an attempt as failed before the slow password check, so concurrent
 * guesses count against each other (checking first let a burst of requests all
 * pass). Returns its id, or undefined (and forgets it) when over a limit.
 */
export async function beginLoginAttempt(db: Db, ip: string, username: string): Promise<number | undefined> {
  const name = username.toLowerCase();
  const { id } = await db.insertInto('login_attempts').values({ ip, username: name, succeeded: false }).returning('id').executeTakeFirstOrThrow();
  if (!(await isLoginLimited(db, ip, name))) return id;
  await db.deleteFrom('login_attempts').where('id', '=', id).execute();
  return undefined;
}

export async function markLoginSucceeded(db: Db, attemptId: number) {
  await db.updateTable('login_attempts').set({ succeeded: true }).where('id', '=', attemptId).execute();
}

/** Drops attempts older than a day; run from the maintenance timer. */
export async function pruneLoginAttempts(db: Db) {
  await db.deleteFrom('login_attempts').where('at', '<', sql<Date>`now() - interval '1 day'`).execute();
}
