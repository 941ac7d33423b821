import { EventEmitter } from 'node:events';
import type { TelemetryState } from '@fleet/contract';
import { sendOnChannel, subscribeChannel, type ChannelSubscription } from '../db/channel.js';
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
 * The live channel (db/channel.ts): NOTIFY through the app's pool, LISTEN on a
 * connection of its own to the database the pool writes to, opened with the
 * first subscriber (or ready()) and kept until close(), reopened after a lost connection.
 */
export function createPostgresHub(db: Db, log: Logger): LiveHub {
  const local = createMemoryHub();
  let channel: ChannelSubscription | undefined;
  let closed = false;
  const listen = () => {
    if (!channel && !closed)
      channel = subscribeChannel(db, LIVE_CHANNEL, log, {
        message: (payload) => {
          try {
            void local.publish(JSON.parse(payload) as LiveRecord);
          } catch (err) {
            log.warn({ err }, 'bad live notification');
          }
        },
      });
    return channel;
  };

  return {
    publish: async (state) => {
      await sendOnChannel(db, LIVE_CHANNEL, [JSON.stringify(recordOf(state))]);
    },
    publishAll: async (states) => {
      await sendOnChannel(
        db,
        LIVE_CHANNEL,
        states.map((s) => JSON.stringify(recordOf(s))),
      );
    },
    subscribe: (listener) => {
      listen();
      return local.subscribe(listener);
    },
    ready: async () => {
      await listen()?.listening();
    },
    close: async () => {
      closed = true;
      const c = channel;
      channel = undefined;
      await c?.close();
      await local.close();
    },
  };
}
