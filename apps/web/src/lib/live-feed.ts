import { LIVE_PATH, liveEvents, LiveState, liveTicket } from '@fleet/contract';
import { useEffect } from 'react';
import { create } from 'zustand';
import { callApi } from './api-client';
import { fastParser } from './fast-parse';

/**
 * Live latest-state of the vehicles the signed-in user may see, pushed by the
 * server over SSE (the server scopes it). One connection, shared by every
 * vehicle screen that is open, reopened with a fresh ticket after a drop.
 *
 * Pushed states are gathered and applied at most once per frame's time (a
 * snapshot of 10,000 states or a burst of single ones is one store update, one render).
 * `states` is one object for the session, updated in place (never copied per
 * push): select an entry (`s.states[id]`), or `version`, which grows with every
 * applied batch, to hear that something changed.
 */
interface LiveStore {
  states: Readonly<Record<string, LiveState>>;
  version: number;
  connected: boolean;
}
const held: Record<string, LiveState> = {};
export const useLiveStore = create<LiveStore>()(() => ({ states: held, version: 0, connected: false }));

let users = 0;
let source: EventSource | null = null;
let retry: ReturnType<typeof setTimeout> | undefined;

/** States waiting for the next flush, the newest per terminal. */
const pending = new Map<string, LiveState>();
/** At most one store update per frame's time: a burst of pushes is one update, one render. */
export const LIVE_FLUSH_MS = 16;
let timer: ReturnType<typeof setTimeout> | null = null;
let flushedAt = -Infinity;

/** Applies the waiting states: one store update for everything pushed since the last one. */
export function flushLive() {
  if (timer !== null) clearTimeout(timer);
  timer = null;
  if (pending.size === 0) return;
  for (const [id, st] of pending) held[id] = st;
  pending.clear();
  flushedAt = performance.now();
  useLiveStore.setState((s) => ({ version: s.version + 1 }));
}

/**
 * Queues pushed states. They are applied after the events already received (a macrotask, not an
 * animation frame: under load a frame can wait 100-250 ms while the thread is idle, and the render
 * would then wait one frame more), and at most once per LIVE_FLUSH_MS.
 */
export function putLive(list: readonly LiveState[]) {
  for (const st of list) pending.set(st.car_data_id, st);
  if (timer !== null || pending.size === 0) return;
  timer = setTimeout(flushLive, Math.max(0, flushedAt + LIVE_FLUSH_MS - performance.now()));
}

/** Each state checked on its own by the contract's LiveState (fast path: lib/fast-parse); a bad one is dropped. */
const parseState = fastParser(LiveState);
export function parseSnapshot(data: unknown): LiveState[] {
  const states = (data as { states?: unknown } | null)?.states;
  if (!Array.isArray(states)) return [];
  const out: LiveState[] = [];
  for (const raw of states) {
    const r = parseState(raw);
    if (r.success) out.push(r.data);
  }
  return out;
}

const json = (e: Event): unknown => {
  try {
    return JSON.parse((e as MessageEvent<string>).data);
  } catch {
    return null;
  }
};

async function open() {
  try {
    const { ticket } = await callApi(liveTicket, {});
    if (users === 0) return;
    source = new EventSource(`${LIVE_PATH}?ticket=${encodeURIComponent(ticket)}`);
    source.addEventListener('open', () => useLiveStore.setState({ connected: true }));
    source.addEventListener(liveEvents.snapshot, (e) => putLive(parseSnapshot(json(e))));
    source.addEventListener(liveEvents.state, (e) => {
      const parsed = parseState(json(e));
      if (parsed.success) putLive([parsed.data]);
    });
    const reconnect = () => {
      source?.close();
      source = null;
      useLiveStore.setState({ connected: false });
      if (users > 0) retry = setTimeout(() => void open(), 3000);
    };
    source.addEventListener(liveEvents.expired, reconnect);
    source.addEventListener('error', reconnect);
  } catch {
    if (users > 0) retry = setTimeout(() => void open(), 5000);
  }
}

/** Keeps the live feed open while the calling screen is mounted. */
export function useLiveFeed() {
  useEffect(() => {
    users += 1;
    if (users === 1) void open();
    return () => {
      users -= 1;
      if (users === 0) {
        clearTimeout(retry);
        source?.close();
        source = null;
        useLiveStore.setState({ connected: false });
      }
    };
  }, []);
}

/** The newest state of one terminal: the pushed one if newer than what a call returned. */
export function useLatestState<T extends { last_seen_at: string } | null | undefined>(
  carDataId: string | null | undefined,
  fetched: T,
): T | LiveState {
  const pushed = useLiveStore((s) => (carDataId ? s.states[carDataId] : undefined));
  if (!pushed) return fetched;
  if (!fetched || pushed.last_seen_at >= fetched.last_seen_at) return pushed;
  return fetched;
}
