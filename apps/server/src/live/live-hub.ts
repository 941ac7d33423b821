import { EventEmitter } from 'node:events';
import type { TelemetryState } from '@fleet/contract';
import { ALERT_CHANNEL } from '../alerts/alerts.repository.js';
import { sendOnChannel, subscribeChannel, type ChannelSubscription } from '../db/channel.js';
import { pgliteOf, type Db } from '../db/database.js';
import { SESSION_CHANNEL } from '../sessions/session-cache.js';
import type { LiveRecord } from '../telemetry/latest-state.repository.js';

/**
 * Fan-out of latest-state changes to the live streams, over the signal channel
 * of db/channel.ts: on PostgreSQL every instance LISTENs on one channel and
 * publishing is a NOTIFY, so a terminal reporting to server A reaches a console
 * watching server B; on PGlite (one process by nature) the channel is an
 * in-process emitter. One hub for both.
 *
 * What travels is a LiveRecord: the state with its owner and field-group times,
 * from which each stream decides what its company may see. A JSON record is well
 * under a kilobyte, far from NOTIFY's 8000-byte limit.
 *
 * The session signals (`fleet_sessions`, sessions/session-cache.ts) come through
 * the hub too, on the same LISTEN connection as the states: a session ended or
 * an account changed before a state was published is heard before that state,
 * on every instance, so a stream can stop before it would push it.
 *
 * So do the alert signals (`fleet_alerts`, a company per new, acknowledged or deleted alert), which the
 * database sends by itself (triggers alerts_signal_*) at commit: on PostgreSQL on the same LISTEN
 * connection; on PGlite through its own LISTEN, since the writer is the ingest's or a call's
 * transaction, not the app's signal.
 */
export interface LiveHub {
  /**
   * States as the store returns them (LiveRecord). Typed as plain states because the
   * gateways hand them on as such; one without an owner reaches the super admin only.
   */
  publish(state: TelemetryState): Promise<void>;
  /** Several at once (one NOTIFY statement): the gateway's group commit. */
  publishAll(states: readonly TelemetryState[]): Promise<void>;
  subscribe(listener: LiveListener): () => void;
  /** Resolves once changes published from now on will reach subscribers. */
  ready(): Promise<void>;
  close(): Promise<void>;
}

export interface LiveListener {
  /** A terminal's latest state changed. */
  state(record: LiveRecord): void;
  /** Sessions changed: a session-cache payload ('t:<token hash>', 'a:<account id>', '*'; see changeConcerns). */
  sessions(payload: string): void;
  /** Session signals may have been missed (the listening connection was lost and is back). */
  missed(): void;
  /** The alerts of a company ('' for none) changed: one was added, acknowledged or deleted. */
  alerts(company: string): void;
}

export const LIVE_CHANNEL = 'fleet_live';
/** The channels the hub LISTENs on, on one connection (so in commit order). */
export const LIVE_HUB_CHANNELS = [LIVE_CHANNEL, SESSION_CHANNEL, ALERT_CHANNEL] as const;

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

interface Logger {
  warn(obj: object, msg: string): void;
}

/** The subscribers of one process, told in the order the events come. */
function fanOut() {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  return {
    state: (record: LiveRecord) => emitter.emit('state', record),
    sessions: (payload: string) => emitter.emit('sessions', payload),
    missed: () => emitter.emit('missed'),
    alerts: (company: string) => emitter.emit('alerts', company),
    subscribe: (listener: LiveListener) => {
      const state = (r: LiveRecord) => listener.state(r);
      const sessions = (p: string) => listener.sessions(p);
      const missed = () => listener.missed();
      const alerts = (c: string) => listener.alerts(c);
      emitter.on('state', state);
      emitter.on('sessions', sessions);
      emitter.on('missed', missed);
      emitter.on('alerts', alerts);
      return () => {
        emitter.off('state', state);
        emitter.off('sessions', sessions);
        emitter.off('missed', missed);
        emitter.off('alerts', alerts);
      };
    },
    close: () => emitter.removeAllListeners(),
  };
}

/**
 * The live channel (db/channel.ts): on PostgreSQL NOTIFY through the app's pool,
 * LISTEN on a connection of its own to the database the pool writes to, opened
 * with the first subscriber (or ready()) and kept until close(), reopened after a
 * lost connection. The session channel is LISTENed on the same connection (in order).
 */
export function createLiveHub(db: Db, log: Logger): LiveHub {
  const local = fanOut();
  let channel: ChannelSubscription | undefined;
  let closed = false;
  // PGlite: the trigger's NOTIFY is heard through PGlite's own LISTEN (the signal channel is in-process there).
  const pglite = pgliteOf(db);
  let nativeAlerts: Promise<(() => Promise<void>) | undefined> | undefined;
  const listen = () => {
    if (pglite && !nativeAlerts && !closed)
      nativeAlerts = pglite
        .listen(ALERT_CHANNEL, (company) => local.alerts(company))
        .catch((err: unknown) => {
          log.warn({ err }, 'alert signal listener could not start');
          return undefined;
        });
    if (!channel && !closed)
      channel = subscribeChannel(db, LIVE_HUB_CHANNELS, log, {
        message: (payload, name) => {
          if (name === SESSION_CHANNEL) return void local.sessions(payload);
          if (name === ALERT_CHANNEL) return void local.alerts(payload);
          let record: LiveRecord;
          try {
            record = recordOf(JSON.parse(payload) as TelemetryState);
          } catch (err) {
            return log.warn({ err }, 'bad live notification');
          }
          local.state(record);
        },
        missed: local.missed,
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
      await nativeAlerts;
    },
    close: async () => {
      closed = true;
      const c = channel;
      channel = undefined;
      await c?.close();
      const unlisten = await nativeAlerts;
      nativeAlerts = undefined;
      if (pglite && !pglite.closed) await unlisten?.().catch(() => undefined);
      local.close();
    },
  };
}
