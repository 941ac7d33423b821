import { EventEmitter } from 'node:events';
import { sql } from 'kysely';
import pg from 'pg';
import { poolOf, type Db } from './database.js';

/**
 * One signal channel between the instances sharing a database: the command
 * signal (commands/command-signal.ts), the live push (live/live-hub.ts) and the
 * session cache's invalidation (sessions/session-cache.ts) all go through it.
 *
 * On PostgreSQL a signal is a NOTIFY on the channel carrying a text payload, so
 * it reaches every instance on the database; each database handle LISTENs per
 * channel on one connection of its own (made from its pool's settings, so it is
 * the database the pool writes to), opened with the first subscriber, closed
 * with the last and reopened after a loss, after which every subscriber is told
 * that signals may have been missed. On PGlite (one process by nature) an
 * in-process emitter per database handle and channel.
 *
 * A subscription may name several channels: they share one LISTEN connection,
 * so their signals arrive in the order their transactions committed (the
 * live push hears a session ending before any position published after it;
 * two connections give no order between them).
 */
export interface ChannelListener {
  /** A payload sent on the channel (by this instance or another); `channel` names it. */
  message(payload: string, channel: string): void;
  /** Signals may have been missed: the listening connection was lost (or could not connect) and is back. */
  missed?(): void;
  /** The listening connection was lost: until missed() says it is back, signals do not arrive. */
  lost?(): void;
}

export interface ChannelSubscription {
  /** Resolves once signals sent from now on reach the listener (PostgreSQL: LISTEN is in place, or failed and is retried). */
  listening(): Promise<void>;
  /** Whether signals reach the listener right now (PGlite: always; PostgreSQL: while LISTENing). */
  live(): boolean;
  close(): Promise<void>;
}

export interface ChannelLog {
  warn(obj: object, msg: string): void;
}

const RETRY_MS = 2000;
/** PostgreSQL's limit on a NOTIFY payload is 8000 bytes. */
export const MAX_PAYLOAD_BYTES = 7999;

class Channel {
  readonly emitter = new EventEmitter();
  subscribers = 0;
  private client: pg.Client | undefined;
  private connecting: Promise<void> | undefined;
  private retry: NodeJS.Timeout | undefined;
  /** A connection failed or was lost: the next one says so ('missed'). */
  private lost = false;
  /** Tests: no retry until ensure() is called (breakChannelForTest). */
  private held = false;

  constructor(
    /** The channels LISTENed on this connection. */
    readonly names: readonly string[],
    /** The PostgreSQL pool; undefined on PGlite. */
    readonly pool: pg.Pool | undefined,
    private readonly log: ChannelLog,
  ) {
    this.emitter.setMaxListeners(0);
  }

  get live() {
    return !this.pool || this.client !== undefined;
  }

  /** LISTENing (PostgreSQL), or connecting; nothing to do on PGlite. */
  ensure(): Promise<void> {
    this.held = false;
    if (!this.pool || this.client || this.subscribers === 0) return Promise.resolve();
    this.connecting ??= this.connect(this.pool)
      .catch((err: unknown) => {
        this.log.warn({ err, channel: this.names.join(', ') }, 'channel listener could not connect');
        this.lost = true;
        this.later();
      })
      .finally(() => {
        this.connecting = undefined;
      });
    return this.connecting;
  }

  private async connect(pool: pg.Pool) {
    // The pool's own settings (its clients are made from them): the same server, database and credentials.
    const c = new pg.Client(pool.options);
    c.on('notification', (n) => {
      if (this.names.includes(n.channel) && n.payload !== undefined) this.emitter.emit('message', n.payload, n.channel);
    });
    c.on('error', (err) => this.dropped(c, err));
    c.on('end', () => this.dropped(c));
    try {
      await c.connect();
      for (const name of this.names) await c.query(`LISTEN ${pg.escapeIdentifier(name)}`);
    } catch (err) {
      await c.end().catch(() => undefined);
      throw err;
    }
    if (this.subscribers === 0) return void (await c.end().catch(() => undefined));
    this.client = c;
    if (this.lost) {
      this.lost = false;
      this.emitter.emit('missed');
    }
  }

  private dropped(c: pg.Client, err?: Error) {
    if (this.client !== c) return;
    this.client = undefined;
    this.lost = true;
    this.log.warn({ err, channel: this.names.join(', ') }, 'channel listener lost its connection');
    this.emitter.emit('lost');
    c.end().catch(() => undefined);
    this.later();
  }

  private later() {
    if (this.retry || this.subscribers === 0 || this.held) return;
    this.retry = setTimeout(() => {
      this.retry = undefined;
      void this.ensure();
    }, RETRY_MS);
  }

  /** The last subscriber left: stop listening. */
  async idle() {
    clearTimeout(this.retry);
    this.retry = undefined;
    await this.connecting;
    if (this.subscribers > 0) return;
    const c = this.client;
    this.client = undefined;
    this.lost = false;
    await c?.end().catch(() => undefined);
  }

  /** Tests: drops the listening connection as a network failure would, and reconnects only when asked (ensure). */
  breakConnection() {
    const c = this.client;
    this.held = true;
    if (c) this.dropped(c, new Error('connection broken on purpose'));
  }
}

const channels = new WeakMap<Db, Map<string, Channel>>();

const namesOf = (name: string | readonly string[]): readonly string[] => (typeof name === 'string' ? [name] : name);

function channelOf(db: Db, names: readonly string[], log: ChannelLog): Channel {
  let byName = channels.get(db);
  if (!byName) channels.set(db, (byName = new Map()));
  const key = names.join('\n');
  let channel = byName.get(key);
  if (!channel) byName.set(key, (channel = new Channel(names, poolOf(db), log)));
  return channel;
}

/**
 * Calls `listener` for the signals sent on this channel (or these channels, on
 * one connection and so in commit order) of this database (the handle
 * openDatabase returned). close() when done: the last one closes the LISTEN connection.
 */
export function subscribeChannel(
  db: Db,
  name: string | readonly string[],
  log: ChannelLog,
  listener: ChannelListener,
): ChannelSubscription {
  const ch = channelOf(db, namesOf(name), log);
  const message = (payload: string, channel: string) => listener.message(payload, channel);
  const missed = () => listener.missed?.();
  const lost = () => listener.lost?.();
  ch.subscribers++;
  ch.emitter.on('message', message);
  ch.emitter.on('missed', missed);
  ch.emitter.on('lost', lost);
  void ch.ensure();
  let open = true;
  return {
    listening: () => ch.ensure(),
    live: () => open && ch.live,
    close: async () => {
      if (!open) return;
      open = false;
      ch.emitter.off('message', message);
      ch.emitter.off('missed', missed);
      ch.emitter.off('lost', lost);
      if (--ch.subscribers === 0) await ch.idle();
    },
  };
}

/**
 * Sends payloads on a channel: one NOTIFY statement through the pool on
 * PostgreSQL, the in-process emitter on PGlite. Call it with the database
 * handle (not a transaction) once what it tells of is committed. Throws when
 * the NOTIFY fails; the callers decide what a lost signal costs. With
 * `hereFirst` (the caches' invalidations) this process's listeners on the
 * handle are told at once, before the NOTIFY comes back to them (they hear it
 * twice on PostgreSQL).
 */
export async function sendOnChannel(
  db: Db,
  name: string,
  payloads: readonly string[],
  opts: { hereFirst?: boolean } = {},
): Promise<void> {
  if (db.isTransaction) throw new Error(`sendOnChannel(${name}): call it after the commit, with the database handle`);
  if (payloads.length === 0) return;
  const postgres = poolOf(db) !== undefined;
  if (!postgres || opts.hereFirst) {
    for (const ch of channels.get(db)?.values() ?? [])
      if (ch.names.includes(name)) for (const p of payloads) ch.emitter.emit('message', p, name);
  }
  if (!postgres) return;
  if (payloads.length === 1) await sql`SELECT pg_notify(${name}, ${payloads[0]})`.execute(db);
  else await sql`SELECT pg_notify(${name}, p) FROM unnest(${payloads}::text[]) AS p`.execute(db);
}

/**
 * Tests: drops a channel's listening connection (PostgreSQL) as a network failure would; it is
 * reopened when a subscription asks for it (listening()), not on the retry timer.
 */
export function breakChannelForTest(db: Db, name: string | readonly string[]) {
  channels.get(db)?.get(namesOf(name).join('\n'))?.breakConnection();
}
