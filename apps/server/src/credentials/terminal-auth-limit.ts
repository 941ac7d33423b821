import { sql } from 'kysely';
import type { Db } from '../db/database.js';
import { terminalsChanged, type LimitState } from './terminal-cache.js';

/**
 * Failed terminal authentications allowed per terminal id and per IP within
 * the window; past either, the gateway answers 429 even to the right password.
 * The per-IP limit is higher: many terminals share a carrier's NAT address.
 */
export const TERMINAL_AUTH_LIMITS = { perTerminal: 10, perIp: 50, windowMinutes: 15 } as const;

/*
 * Kept in login_attempts beside the console's sign-ins (one table, pruned by
 * the same maintenance, shared by every instance), with both columns prefixed
 * so the two sets of limits never count each other's rows.
 */
const ipKey = (ip: string) => `terminal:${ip}`;
const idKey = (carDeviceId: string) => `terminal:${carDeviceId}`;

/** A request's (IP, terminal id) pair, as one key for coalesce(). */
export const limitKey = (ip: string, carDeviceId: string) => JSON.stringify([ip, carDeviceId]);

/** For each limitKey, whether its IP and its terminal id are over the limit: one query for all of them. */
export async function findLimited(db: Db, keys: readonly string[]): Promise<Map<string, LimitState>> {
  const pairs = keys.map((k) => JSON.parse(k) as [string, string]);
  const since = sql<Date>`now() - make_interval(mins => ${TERMINAL_AUTH_LIMITS.windowMinutes})`;
  const recent = db.selectFrom('login_attempts').where('succeeded', '=', false).where('at', '>', since);
  const rows = await recent
    .select([sql<string>`'ip'`.as('kind'), 'ip as key', sql<number>`count(*)::int`.as('n')])
    .where(
      'ip',
      'in',
      pairs.map(([ip]) => ipKey(ip)),
    )
    .groupBy('ip')
    .unionAll(
      recent
        .select([sql<string>`'id'`.as('kind'), 'username as key', sql<number>`count(*)::int`.as('n')])
        .where(
          'username',
          'in',
          pairs.map(([, id]) => idKey(id)),
        )
        .groupBy('username'),
    )
    .execute();
  const failures = new Map(rows.map((r) => [`${r.kind} ${r.key}`, Number(r.n)]));
  return new Map(
    keys.map((key, i) => {
      const [ip, id] = pairs[i]!;
      const byIp = failures.get(`ip ${ipKey(ip)}`) ?? 0;
      const byId = failures.get(`id ${idKey(id)}`) ?? 0;
      return [key, { ip: byIp >= TERMINAL_AUTH_LIMITS.perIp, id: byId >= TERMINAL_AUTH_LIMITS.perTerminal }];
    }),
  );
}

/**
 * Counts one failed authentication against the IP and the terminal id ('' when the credentials named
 * none), and says so to the terminal caches (terminal-cache.ts), which forget that either was
 * under the limit.
 */
export async function recordTerminalAuthFailure(db: Db, ip: string, carDeviceId: string) {
  await db
    .insertInto('login_attempts')
    .values({ ip: ipKey(ip), username: idKey(carDeviceId), succeeded: false })
    .execute();
  await terminalsChanged(db, { failure: [ip, carDeviceId] });
}
