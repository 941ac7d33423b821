import { sendOnChannel, type ChannelLog, type ChannelSubscription } from '../db/channel.js';
import type { Db } from '../db/database.js';
import { SignalledMap, subscribeInvalidations } from '../db/signalled-map.js';

/**
 * A short in-process cache of live sessions (docs/security.md §2): a signed-in call finds
 * its session here instead of asking the database every time. Revocation stays
 * immediate on every instance: whatever changes a session or the authority of
 * its account (sign-out, step-up, selection, password, role, company, engine
 * right, deletion, TOTP, a company's TOTP policy) says so with `sessionsChanged`
 * once committed; this instance forgets at once, the others hear it on the
 * `fleet_sessions` channel (db/channel.ts: NOTIFY on PostgreSQL, an in-process
 * emitter on PGlite). On PostgreSQL the database also signals by itself:
 * triggers on sessions, accounts, account_totp and companies (migration
 * 2026_12_09_090000_session_change_signals) NOTIFY at commit, so a change made
 * by SQL outside the app reaches every instance too. The live streams hear the
 * same signals and end with their session (live/live.routes.ts).
 *
 * The cache serves nothing while the channel is not listening (before the
 * first LISTEN, and from a lost connection until it is back): it is emptied
 * when the connection is lost and again when it is back (signals may have been
 * missed in between). A read that began before an invalidation is never stored
 * (generation check), and an entry lives at most `ttlMs` whatever happens.
 */
export const SESSION_CHANNEL = 'fleet_sessions';

/** Whose sessions changed: one session (its token hash), every session of an account, or all. */
export type SessionChange = { tokenHash: string } | { accountId: string } | 'all';

const payloadOf = (change: SessionChange) =>
  change === 'all' ? '*' : 'tokenHash' in change ? `t:${change.tokenHash}` : `a:${change.accountId}`;

/** Whether a change payload may concern this session: it names the session, its account, or all (or is unknown). */
export const changeConcerns = (payload: string, session: { tokenHash: string; accountId: string }) =>
  payload.startsWith('t:')
    ? payload.slice(2) === session.tokenHash
    : payload.startsWith('a:')
      ? payload.slice(2) === session.accountId
      : true;

/** What the cache needs of a session row (session.repository.ts's SessionRow). */
export interface CachedSession {
  token_hash: string;
  account_id: string;
  expires_at: Date | string;
  last_seen_at: Date | string;
}

export interface SessionCacheOptions {
  /** How long an entry is used before the database is asked again (default 10 s). */
  ttlMs?: number;
  /** At most this many sessions are kept (default 10,000): the oldest goes first. */
  maxEntries?: number;
}

export class SessionCache<R extends CachedSession = CachedSession> {
  /** Sessions by token hash. */
  private readonly entries: SignalledMap<R>;
  private readonly channel: ChannelSubscription;

  constructor(
    readonly db: Db,
    log: ChannelLog,
    opts: SessionCacheOptions = {},
  ) {
    this.channel = subscribeInvalidations(db, SESSION_CHANNEL, log, this);
    this.entries = new SignalledMap<R>(() => this.channel.live(), {
      ttlMs: opts.ttlMs ?? 10_000,
      maxEntries: opts.maxEntries ?? 10_000,
    });
  }

  /** Resolves once invalidations sent from now on reach this cache. */
  listening() {
    return this.channel.listening();
  }

  /** The cached live session of a token hash, or undefined (not cached, stale, expired, or the channel is down). */
  get(tokenHash: string, life: { idleMinutes: number }, now = Date.now()): R | undefined {
    const row = this.entries.get(tokenHash, now);
    if (!row) return undefined;
    if (
      new Date(row.expires_at).getTime() <= now ||
      new Date(row.last_seen_at).getTime() + life.idleMinutes * 60_000 <= now
    ) {
      this.entries.delete(tokenHash);
      return undefined;
    }
    return row;
  }

  /** Taken before reading a session from the database; `put` stores it only if nothing was invalidated since. */
  mark(): number {
    return this.entries.mark();
  }

  put(row: R, mark: number, now = Date.now()) {
    this.entries.put(row.token_hash, row, mark, now);
  }

  /** The session's idle expiry was slid forward (touchSession wrote it). */
  touched(tokenHash: string, at: Date) {
    this.entries.replace(tokenHash, (row) => ({ ...row, last_seen_at: at }));
  }

  /** Forgets what a change payload names ('t:<token hash>', 'a:<account id>', '*'). */
  forget(payload: string) {
    if (payload.startsWith('t:')) this.entries.delete(payload.slice(2));
    else if (payload.startsWith('a:')) {
      const accountId = payload.slice(2);
      this.entries.deleteWhere((row) => row.account_id === accountId);
    } else this.entries.clear();
  }

  clear() {
    this.entries.clear();
  }

  get size() {
    return this.entries.size;
  }

  async close() {
    this.clear();
    await this.channel.close();
  }
}

/**
 * Says that sessions changed. Call it with the database handle (not a
 * transaction) once the change is committed: this process's caches forget at
 * once, every other instance on the database when the NOTIFY reaches it.
 */
export async function sessionsChanged(db: Db, change: SessionChange): Promise<void> {
  await sendOnChannel(db, SESSION_CHANNEL, [payloadOf(change)], { hereFirst: true });
}
