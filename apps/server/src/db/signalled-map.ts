/**
 * The memory of an in-process cache whose invalidations arrive on a signal
 * channel (db/channel.ts): the session cache and the terminals' credential
 * cache keep their entries here. It serves nothing while the channel is not
 * live (signals could be missed), never stores a value read before an
 * invalidation that happened during the read (take `mark()` before reading,
 * hand it to `put`), keeps an entry at most `ttlMs` whatever happens, and at
 * most `maxEntries` of them (the oldest goes first).
 */
import type { Db } from './database.js';
import { subscribeChannel, type ChannelLog, type ChannelSubscription } from './channel.js';

export interface SignalledMapOptions {
  ttlMs: number;
  maxEntries: number;
}

interface Entry<V> {
  value: V;
  /** Date.now() after which the entry is read again from the database. */
  freshUntil: number;
}

export class SignalledMap<V> {
  private readonly entries = new Map<string, Entry<V>>();
  private generation = 0;

  constructor(
    /** Whether the channel's signals reach the cache right now. */
    private readonly live: () => boolean,
    private readonly opts: SignalledMapOptions,
  ) {}

  /** The value kept for the key, or undefined (not kept, older than ttlMs, or the channel is down). */
  get(key: string, now = Date.now()): V | undefined {
    const entry = this.entries.get(key);
    if (!entry || !this.live()) return undefined;
    if (entry.freshUntil <= now) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.value;
  }

  /** Taken before reading what `put` stores: it is kept only if nothing was invalidated since. */
  mark(): number {
    return this.generation;
  }

  put(key: string, value: V, mark: number, now = Date.now()) {
    if (mark !== this.generation || !this.live()) return;
    if (this.entries.size >= this.opts.maxEntries && !this.entries.has(key)) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(key, { value, freshUntil: now + this.opts.ttlMs });
  }

  /** Replaces a kept value without making it fresher (what a write of our own changed in it). */
  replace(key: string, update: (value: V) => V) {
    const entry = this.entries.get(key);
    if (entry) entry.value = update(entry.value);
  }

  /** Forgets one key (an invalidation). */
  delete(key: string) {
    this.generation++;
    this.entries.delete(key);
  }

  /** Forgets every entry whose value matches (an invalidation). */
  deleteWhere(match: (value: V) => boolean) {
    this.generation++;
    for (const [key, entry] of this.entries) if (match(entry.value)) this.entries.delete(key);
  }

  /** Forgets everything (an invalidation). */
  clear() {
    this.generation++;
    this.entries.clear();
  }

  get size() {
    return this.entries.size;
  }
}

/** What a cache does with its channel's signals. */
export interface Invalidated {
  /** Forgets what a payload names. */
  forget(payload: string): void;
  /** Forgets everything (signals may have been missed). */
  clear(): void;
}

/**
 * Subscribes a cache to the channel its invalidations come on: each payload is forgotten, and everything is
 * cleared when the listening connection is lost and again when it is back (signals may have been missed).
 */
export const subscribeInvalidations = (
  db: Db,
  name: string,
  log: ChannelLog,
  cache: Invalidated,
): ChannelSubscription =>
  subscribeChannel(db, name, log, {
    message: (payload) => cache.forget(payload),
    lost: () => cache.clear(),
    missed: () => cache.clear(),
  });
