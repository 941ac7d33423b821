import { sendOnChannel, subscribeChannel } from '../db/channel.js';
import type { Db } from '../db/database.js';

/**
 * "Commands wait for this terminal" (docs/device-protocol.md §13): said by whoever made a command,
 * once the transaction that made it committed, and heard by the TCP link
 * gateway, which then hands it out at once to the terminal's open connection.
 *
 * It is a channel of its own (db/channel.ts) carrying the IMEI: a NOTIFY on
 * PostgreSQL, so it reaches the gateway of every server instance on the
 * database, and an in-process emitter on PGlite.
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

/**
 * Calls `listener` for the commands signalled on this database (the handle
 * openDatabase returned). close() when done: the last one closes the LISTEN connection.
 */
export function subscribeCommands(db: Db, log: Log, listener: CommandListener): CommandSubscription {
  const sub = subscribeChannel(db, COMMAND_CHANNEL, log, {
    message: (imei) => {
      if (imei) listener.ready(imei);
    },
    missed: () => listener.missed(),
  });
  return { listening: () => sub.listening(), close: () => sub.close() };
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
    await sendOnChannel(db, COMMAND_CHANNEL, unique);
  } catch {
    // See above: the gateway's poll finds the command.
  }
}
