import { EventEmitter } from 'node:events';
import { sql } from 'kysely';
import pg from 'pg';
import { poolOf, type Db } from '../db/database.js';

/**
 * "Commands wait for this terminal" (issue #14): said by whoever made a command,
 * once the transaction that made it committed, and heard by the TCP link
 * gateway, which then hands it out at once to the terminal's open connection.
 *
 * On PostgreSQL it is a NOTIFY on a channel of its own carrying the IMEI, so it
 * reaches the gateway of every server instance on the database; each database
 * handle LISTENs on one connection of its own (made from its pool's settings,
 * so it is the database the pool writes to), opened with the first subscriber,
 * closed with the last and reopened after a loss. On PGlite (one process by
 * nature) an in-process emitter per database handle, as the live push does.
 *
 * A lost signal costs time, never a command: the command is stored before it
 * is signalled, and the gateway still looks at every connected terminal on a
 * slow poll and after each reconnection of the listener.
 */
export const COMMAND_CHANNEL = 'fleet_command';

export interface CommandListener {
  /** Commands may wait for this terminal. */
  ready(imei: string): void;
  /** Signals may have been missed (the listening connection was lost and is back): look at every terminal. */
  missed(): void;
}

export interface CommandSubscription {
  /** Resolves once commands signalled from now on reach the listener (PostgreSQL: LISTEN is in place, or failed and is retried). */
  listening(): Promise<void>;
  close(): Promise<void>;
}

interface Log {
  warn(obj: object, msg: string): void;
}

const RETRY_MS = 2000;

class Channel {
  readonly emitter = new EventEmitter();
  subscribers = 0;
  private client: pg.Client | undefined;
  private connecting: Promise<void> | undefined;
  private retry: NodeJS.Timeout | undefined;
  /** A connection failed or was lost: the next one says so ('missed'). */
  private lost = false;

  constructor(
    /** The PostgreSQL pool; undefined on PGlite. */
    private readonly pool: pg.Pool | undefined,
    private readonly log: Log,
  ) {
    this.emitter.setMaxListeners(0);
  }

  /** LISTENing (PostgreSQL), or connecting; nothing to do on PGlite. */
  ensure(): Promise<void> {
    if (!this.pool || this.client || this.subscribers === 0) return Promise.resolve();
    this.connecting ??= this.connect(this.pool)
      .catch((err: unknown) => {
        this.log.warn({ err }, 'command listener could not connect');
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
      if (n.channel === COMMAND_CHANNEL && n.payload) this.emitter.emit('ready', n.payload);
    });
    c.on('error', (err) => this.dropped(c, err));
    c.on('end', () => this.dropped(c));
    try {
      await c.connect();
      await c.query(`LISTEN ${COMMAND_CHANNEL}`);
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
    this.log.warn({ err }, 'command listener lost its connection');
    c.end().catch(() => undefined);
    this.later();
  }

  private later() {
    if (this.retry || this.subscribers === 0) return;
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
}

const channels = new WeakMap<Db, Channel>();

/**
 * Calls `listener` for the commands signalled on this database (the handle
 * openDatabase returned). close() when done: the last one closes the LISTEN connection.
 */
export function subscribeCommands(db: Db, log: Log, listener: CommandListener): CommandSubscription {
  let channel = channels.get(db);
  if (!channel) channels.set(db, (channel = new Channel(poolOf(db), log)));
  const ch = channel;
  const ready = (imei: string) => listener.ready(imei);
  const missed = () => listener.missed();
  ch.subscribers++;
  ch.emitter.on('ready', ready);
  ch.emitter.on('missed', missed);
  void ch.ensure();
  let open = true;
  return {
    listening: () => ch.ensure(),
    close: async () => {
      if (!open) return;
      open = false;
      ch.emitter.off('ready', ready);
      ch.emitter.off('missed', missed);
      if (--ch.subscribers === 0) await ch.idle();
    },
  };
}

/**
 * Says that commands wait for these terminals. Call it with the database handle
 * (not a transaction) once the transaction that made them committed. It never
 * throws: the commands are stored, and a lost signal only delays them until the
 * gateway's next look.
 */
export async function signalCommands(db: Db, imeis: readonly string[]): Promise<void> {
  if (db.isTransaction) throw new Error('signalCommands: call it after the commit, with the database handle');
  const unique = [...new Set(imeis)];
  if (unique.length === 0) return;
  try {
    if (poolOf(db))
      await sql`SELECT pg_notify(${COMMAND_CHANNEL}, imei) FROM unnest(${unique}::text[]) AS imei`.execute(db);
    else for (const imei of unique) channels.get(db)?.emitter.emit('ready', imei);
  } catch {
    // See above: the gateway's poll finds the command.
  }
}
