import { EventEmitter } from 'node:events';
import type { TelemetryState } from '@fleet/contract';
import { sql } from 'kysely';
import pg from 'pg';
import type { Db } from '../db/database.js';

/**
 * Fan-out of latest-state changes to the live streams. On PostgreSQL every
 * instance LISTENs on one channel and publishing is a NOTIFY, so a terminal
 * reporting to server A reaches a console watching server B. On PGlite (one
 * process by nature) an in-process emitter is all there is.
 */
export interface LiveHub {
  publish(state: TelemetryState): Promise<void>;
  /** Several at once (one NOTIFY statement): the gateway's group commit. */
  publishAll(states: readonly TelemetryState[]): Promise<void>;
  subscribe(listener: (state: TelemetryState) => void): () => void;
  /** Resolves once changes published from now on will reach subscribers. */
  ready(): Promise<void>;
  close(): Promise<void>;
}

export const LIVE_CHANNEL = 'fleet_live';

export function createMemoryHub(): LiveHub {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  return {
    publish: async (state) => {
      emitter.emit('state', state);
    },
    publishAll: async (states) => {
      for (const state of states) emitter.emit('state', state);
    },
    subscribe: (listener) => {
      emitter.on('state', listener);
      return () => emitter.off('state', listener);
    },
    ready: async () => undefined,
    close: async () => {
      emitter.removeAllListeners();
    },
  };
}

interface Logger {
  warn(obj: object, msg: string): void;
}

/**
 * NOTIFY through the app's pool; LISTEN on a connection of its own, opened
 * with the first subscriber, to the same database the pool writes to (found
 * with current_database(), so per-test databases stay apart), reopened after
 * a lost connection.
 */
export function createPostgresHub(db: Db, serverUrl: string, log: Logger): LiveHub {
  const local = createMemoryHub();
  let client: pg.Client | undefined;
  let connecting: Promise<void> | undefined;
  let subscribers = 0;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;

  const connect = async () => {
    const { rows } = await sql<{ name: string }>`SELECT current_database() AS name`.execute(db);
    const url = new URL(serverUrl);
    url.pathname = `/${rows[0]!.name}`;
    const c = new pg.Client({ connectionString: url.toString() });
    c.on('notification', (n) => {
      if (n.channel !== LIVE_CHANNEL || !n.payload) return;
      try {
        void local.publish(JSON.parse(n.payload) as TelemetryState);
      } catch (err) {
        log.warn({ err }, 'bad live notification');
      }
    });
    c.on('error', (err) => {
      log.warn({ err }, 'live listener lost its connection');
      if (client === c) client = undefined;
      c.end().catch(() => undefined);
      if (!closed && subscribers > 0) retry = setTimeout(() => void ensure(), 2000);
    });
    await c.connect();
    await c.query(`LISTEN ${LIVE_CHANNEL}`);
    if (closed) await c.end();
    else client = c;
  };
  const ensure = () => {
    if (client || closed) return Promise.resolve();
    connecting ??= connect()
      .catch((err: unknown) => {
        log.warn({ err }, 'live listener could not connect');
        if (!closed && subscribers > 0) retry = setTimeout(() => void ensure(), 2000);
      })
      .finally(() => {
        connecting = undefined;
      });
    return connecting;
  };

  return {
    publish: async (state) => {
      await sql`SELECT pg_notify(${LIVE_CHANNEL}, ${JSON.stringify(state)})`.execute(db);
    },
    publishAll: async (states) => {
      if (states.length === 0) return;
      const payloads = states.map((s) => JSON.stringify(s));
      await sql`SELECT pg_notify(${LIVE_CHANNEL}, p) FROM unnest(${payloads}::text[]) AS p`.execute(db);
    },
    subscribe: (listener) => {
      subscribers++;
      void ensure();
      const off = local.subscribe(listener);
      return () => {
        subscribers--;
        off();
      };
    },
    ready: () => ensure(),
    close: async () => {
      closed = true;
      clearTimeout(retry);
      await connecting;
      await client?.end().catch(() => undefined);
      client = undefined;
      await local.close();
    },
  };
}
