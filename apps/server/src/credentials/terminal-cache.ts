import { sendOnChannel, type ChannelLog, type ChannelSubscription } from '../db/channel.js';
import type { Db } from '../db/database.js';
import { SignalledMap, subscribeInvalidations } from '../db/signalled-map.js';

/**
 * What a reporting terminal's request needs before its body is read, kept in
 * memory (docs/security.md §3): its row (id, IMEI, password hash, deleted, protocol, allowed sources) and
 * that neither its id nor its IP is over the failed-authentication limit.
 * Without it every batch cost two statements besides its share of the group's
 * (most of the gateway's statements: bench/README.md, Measurements behind the code: Gateway). The password is
 * still checked against the hash on every request.
 *
 * Whatever changes what it holds says so on the `fleet_terminals` channel
 * (db/channel.ts), once committed: this instance forgets at once, the others
 * when the NOTIFY reaches them; the database signals a terminal's change by
 * itself too (trigger of migration 2026_12_11_090000_terminal_change_signals),
 * so SQL from outside the app reaches every instance. As the session cache, it
 * serves nothing while the channel is not listening and keeps an entry at most
 * a minute whatever happens.
 * - 'd:<terminal id>': the terminal's row changed (password, IMEI, protocol, allowed sources, deletion);
 * - 'f:<JSON [ip, terminal id]>': a failed authentication was recorded against both;
 * - '*': everything.
 * Only "not over the limit" is kept: a limit passes with time, not by a signal.
 */
export const TERMINAL_CHANNEL = 'fleet_terminals';

export type TerminalChange = { carDeviceId: string } | { failure: [ip: string, carDeviceId: string] };

const payloadOf = (change: TerminalChange) =>
  'carDeviceId' in change ? `d:${change.carDeviceId}` : `f:${JSON.stringify(change.failure)}`;

/** A terminal as the gateway reads it (gateway/device-auth.ts): what authenticates it. */
export interface TerminalRow {
  car_device_id: string;
  car_data_id: string;
  password_hash: string;
  is_delete: boolean;
  /** The protocol the terminal is registered with: only `json` terminals come in through the JSON gateway. */
  protocol: string;
  /** The source addresses it may report from (address-list.ts in the contract); empty: any. */
  ipaddr: string;
}

/** Whether a request's IP and its terminal id are each over the failed-authentication limit (terminal-auth-limit.ts). */
export interface LimitState {
  ip: boolean;
  id: boolean;
}

export interface TerminalCacheOptions {
  /** How long an entry is used before the database is asked again (default 60 s). */
  ttlMs?: number;
  /** At most this many terminals (and as many IPs) are kept (default 200,000). */
  maxEntries?: number;
}

export class TerminalCache {
  private readonly channel: ChannelSubscription;
  /** Terminals found by id (unknown ids are not kept). */
  private readonly devices: SignalledMap<TerminalRow>;
  /** IPs and terminal ids found under the failed-authentication limit. */
  private readonly clearIps: SignalledMap<true>;
  private readonly clearIds: SignalledMap<true>;
  /** Requests answered from memory and from the database (tests, diagnosis). */
  readonly stats = { hits: 0, misses: 0 };

  constructor(
    readonly db: Db,
    log: ChannelLog,
    opts: TerminalCacheOptions = {},
  ) {
    this.channel = subscribeInvalidations(db, TERMINAL_CHANNEL, log, this);
    const live = () => this.channel.live();
    const sizes = { ttlMs: opts.ttlMs ?? 60_000, maxEntries: opts.maxEntries ?? 200_000 };
    this.devices = new SignalledMap(live, sizes);
    this.clearIps = new SignalledMap(live, sizes);
    this.clearIds = new SignalledMap(live, sizes);
  }

  /** Resolves once invalidations sent from now on reach this cache. */
  listening() {
    return this.channel.listening();
  }

  /** The terminal with this id: from memory, or read by `load` (and kept when found). */
  async device(carDeviceId: string, load: (id: string) => Promise<TerminalRow | undefined>) {
    const kept = this.devices.get(carDeviceId);
    if (kept) {
      this.stats.hits++;
      return kept;
    }
    this.stats.misses++;
    const mark = this.devices.mark();
    const row = await load(carDeviceId);
    if (row) this.devices.put(carDeviceId, row, mark);
    return row;
  }

  /** Whether the IP or the terminal id is over the limit: false from memory, or read by `load`. */
  async limited(ip: string, carDeviceId: string, load: () => Promise<LimitState>): Promise<boolean> {
    if (this.clearIps.get(ip) && this.clearIds.get(carDeviceId)) return false;
    const marks = [this.clearIps.mark(), this.clearIds.mark()] as const;
    const state = await load();
    if (!state.ip) this.clearIps.put(ip, true, marks[0]);
    if (!state.id) this.clearIds.put(carDeviceId, true, marks[1]);
    return state.ip || state.id;
  }

  /** Forgets what a change payload names (see TERMINAL_CHANNEL). */
  forget(payload: string) {
    if (payload.startsWith('d:')) this.devices.delete(payload.slice(2));
    else {
      const failure = payload.startsWith('f:') ? parseFailure(payload.slice(2)) : undefined;
      if (!failure) return this.clear();
      this.clearIps.delete(failure[0]);
      this.clearIds.delete(failure[1]);
    }
  }

  clear() {
    this.devices.clear();
    this.clearIps.clear();
    this.clearIds.clear();
  }

  async close() {
    this.clear();
    await this.channel.close();
  }
}

/** A failure payload's [ip, id]; undefined when unreadable (the caller forgets everything). */
function parseFailure(text: string): [string, string] | undefined {
  try {
    const value: unknown = JSON.parse(text);
    if (Array.isArray(value) && typeof value[0] === 'string' && typeof value[1] === 'string')
      return [value[0], value[1]];
  } catch {
    // unreadable
  }
  return undefined;
}

/**
 * Says that a terminal changed or a failed authentication was recorded. Call it with the database handle
 * (not a transaction) once the change is committed: this process's caches forget at once, every other
 * instance on the database when the NOTIFY reaches it.
 */
export async function terminalsChanged(db: Db, change: TerminalChange): Promise<void> {
  await sendOnChannel(db, TERMINAL_CHANNEL, [payloadOf(change)], { hereFirst: true });
}
