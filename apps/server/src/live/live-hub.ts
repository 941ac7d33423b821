import { EventEmitter } from 'node:events';
import type { TelemetryState } from '@fleet/contract';
import { sql } from 'kysely';
import pg from 'pg';
import type { Db } from '../db/database.js';
import type { LiveRecord } from '../telemetry/latest-state.repository.js';

/**
 * Fan-out of latest-state changes to the live streams. On PostgreSQL every
 * instance LISTENs on one channel and publishing is a NOTIFY, so a terminal
 * reporting to server A reaches a console watching server B. On PGlite (one
 * process by nature) an in-process emitter is all there is.
 *
 * What travels is a LiveRecord: the state with its owner and field-group times,
 * from which each stream decides what its company may see. A JSON record is well
 * under a kilobyte, far from NOTIFY's 8000-byte limit.
 */
export interface LiveHub {
  /**
   * States as the store returns them (LiveRecord). Typed as plain states because the
   * gateways hand them on as such; one without an owner reaches the super admin only.
   */
  publish(state: TelemetryState): Promise<void>;
  /** Several at once (one NOTIFY statement): the gateway's group commit. */
  publishAll(states: readonly TelemetryState[]): Promise<void>;
  subscribe(listener: (record: LiveRecord) => void): () => void;
  /** Resolves once changes published from now on will reach subscribers. */
  ready(): Promise<void>;
  close(): Promise<void>;
}

export const LIVE_CHANNEL = 'fleet_live';

const nobodys = {
  position_at: null,
  engine_running_at: null,
  engine_line_at: null,
  connection_at: null,
  device_state_at: null,
  battery_at: null,
  owner_company_id: null,
  owner_car_id: null,
  period_started_at: null,
};
/** Fails closed: a state published without its owner is nobody's (the super admin's only). */
const recordOf = (state: TelemetryState): LiveRecord =>
  'owner_company_id' in state ? (state as LiveRecord) : { ...state, ...nobodys };

export function createMemoryHub(): LiveHub {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  return {
    publish: async (state) => {
      emitter.emit('state', recordOf(state));
    },
    publishAll: async (states) => {
      for (const state of states) emitter.emit('state', recordOf(state));
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
        void local.publish(JSON.parse(n.payload) as LiveRecord);
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
      await sql`SELECT pg_notify(${LIVE_CHANNEL}, ${JSON.stringify(recordOf(state))})`.execute(db);
    },
    publishAll: async (states) => {
      if (states.length === 0) return;
      const payloads = states.map((s) => JSON.stringify(recordOf(s)));
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
