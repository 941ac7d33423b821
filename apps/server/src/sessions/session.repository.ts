import { sql } from 'kysely';
import type { Db } from '../db/database.js';
import { sessionsChanged } from './session-cache.js';
import { hashToken, newToken } from './token.js';

export const selectionColumns = {
  account_id: 'sel_account_id',
  company_id: 'sel_company_id',
  car_id: 'sel_car_id',
  user_id: 'sel_user_id',
  car_data_id: 'sel_data_id',
  car_device_id: 'sel_device_id',
} as const;
export type SelectionKey = keyof typeof selectionColumns;

export interface SessionLifetimes {
  idleMinutes: number;
  maxHours: number;
}

/** A new session; `steppedUpUntil` when the sign-in itself was a step-up (it verified a TOTP code). */
export async function createSession(
  db: Db,
  accountId: string,
  life: SessionLifetimes,
  steppedUpUntil: Date | null = null,
) {
  const token = newToken();
  await db
    .insertInto('sessions')
    .values({
      token_hash: hashToken(token),
      account_id: accountId,
      expires_at: new Date(Date.now() + life.maxHours * 3600_000),
      revoked_at: null,
      stepped_up_until: steppedUpUntil,
      sel_account_id: null,
      sel_company_id: null,
      sel_car_id: null,
      sel_user_id: null,
      sel_data_id: null,
      sel_device_id: null,
    })
    .execute();
  return token;
}

/** The live session of a token (by its hash) with its account, or undefined (expired, idle, revoked, deleted account). */
export async function findSession(db: Db, tokenHash: string, life: SessionLifetimes) {
  return db
    .selectFrom('sessions as s')
    .innerJoin('accounts as a', 'a.account_id', 's.account_id')
    .select([
      's.token_hash',
      's.last_seen_at',
      's.expires_at',
      'a.account_id',
      'a.name',
      'a.role',
      'a.company_id',
      sql<boolean>`account_engine_right(a.engine_control, a.role)`.as('engine_control'),
      's.stepped_up_until',
      // The company requires TOTP and the account has not set it up: only the setup is open (totp.routes.ts).
      sql<boolean>`coalesce((SELECT c.require_totp FROM companies c WHERE c.company_id = a.company_id), false)
        AND NOT EXISTS (SELECT 1 FROM account_totp t WHERE t.account_id = a.account_id AND t.secret IS NOT NULL)`.as(
        'totp_setup_required',
      ),
      's.sel_account_id',
      's.sel_company_id',
      's.sel_car_id',
      's.sel_user_id',
      's.sel_data_id',
      's.sel_device_id',
      // The groups an account is limited to (docs/groups.md); null: not limited, the whole company.
      sql<string[] | null>`CASE WHEN EXISTS (SELECT 1 FROM account_group_limits l WHERE l.account_id = a.account_id)
        THEN coalesce((SELECT array_agg(g.group_id ORDER BY g.group_id) FROM account_groups g
          WHERE g.account_id = a.account_id), '{}') END`.as('group_ids'),
    ])
    .where('s.token_hash', '=', tokenHash)
    .where('s.revoked_at', 'is', null)
    .where('s.expires_at', '>', sql<Date>`now()`)
    .where('s.last_seen_at', '>', sql<Date>`now() - make_interval(mins => ${life.idleMinutes})`)
    .where('a.is_delete', '=', false)
    .executeTakeFirst();
}
export type SessionRow = NonNullable<Awaited<ReturnType<typeof findSession>>>;

/** Marks the session elevated (step-up) until the given time. */
export async function markSteppedUp(db: Db, tokenHash: string, until: Date) {
  await db.updateTable('sessions').set({ stepped_up_until: until }).where('token_hash', '=', tokenHash).execute();
  await sessionsChanged(db, { tokenHash });
}

/** How often a session's idle expiry is slid forward: one write a minute at most, not one per call. */
export const TOUCH_INTERVAL_MS = 60_000;

/**
 * Slides the idle expiry; written at most once a minute per session. A session
 * seen within the last minute is not written at all (no round trip), so a
 * signed-in call costs one statement before its own. True when it wrote.
 */
export async function touchSession(
  db: Db,
  session: Pick<SessionRow, 'token_hash' | 'last_seen_at'>,
  now = Date.now(),
): Promise<boolean> {
  if (now - new Date(session.last_seen_at).getTime() < TOUCH_INTERVAL_MS) return false;
  const tokenHash = session.token_hash;
  await db
    .updateTable('sessions')
    .set({ last_seen_at: sql`now()` })
    .where('token_hash', '=', tokenHash)
    .where('last_seen_at', '<', sql<Date>`now() - interval '1 minute'`)
    .execute();
  return true;
}

export async function revokeSession(db: Db, tokenHash: string) {
  await db
    .updateTable('sessions')
    .set({ revoked_at: sql`now()` })
    .where('token_hash', '=', tokenHash)
    .execute();
  await sessionsChanged(db, { tokenHash });
}

/**
 * Ends every session of an account (deleted, role changed, password changed). Called inside the
 * transaction of the change: the caller says `sessionsChanged(db, { accountId })` once it committed.
 */
export async function revokeAccountSessions(db: Db, accountId: string) {
  await db
    .updateTable('sessions')
    .set({ revoked_at: sql`now()` })
    .where('account_id', '=', accountId)
    .where('revoked_at', 'is', null)
    .execute();
}

export async function setSelection(db: Db, tokenHash: string, key: SelectionKey, value: string) {
  await db
    .updateTable('sessions')
    .set({ [selectionColumns[key]]: value })
    .where('token_hash', '=', tokenHash)
    .execute();
  await sessionsChanged(db, { tokenHash });
}

/** Ends an account's sessions except the one making the change (changing one's own password); see revokeAccountSessions. */
export async function revokeOtherSessions(db: Db, accountId: string, keepTokenHash: string) {
  await db
    .updateTable('sessions')
    .set({ revoked_at: sql`now()` })
    .where('account_id', '=', accountId)
    .where('token_hash', '<>', keepTokenHash)
    .where('revoked_at', 'is', null)
    .execute();
}
