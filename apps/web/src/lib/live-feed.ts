import { LIVE_PATH, liveEvents, LiveSnapshot, LiveState, liveTicket } from '@fleet/contract';
import { useEffect } from 'react';
import { create } from 'zustand';
import { callApi } from './api-client';

/**
 * Live latest-state of the vehicles the signed-in user may see, pushed by the
 * server over SSE (the server scopes it). One connection, shared by every
 * vehicle screen that is open, reopened with a fresh ticket after a drop.
 */
interface LiveStore {
  states: Record<string, LiveState>;
  connected: boolean;
}
export const useLiveStore = create<LiveStore>()(() => ({ states: {}, connected: false }));

let users = 0;
let source: EventSource | null = null;
let retry: ReturnType<typeof setTimeout> | undefined;

const put = (list: LiveState[]) =>
  useLiveStore.setState((s) => {
    const states = { ...s.states };
    for (const st of list) states[st.car_data_id] = st;
    return { states };
  });

async function open() {
  try {
    const { ticket } = await callApi(liveTicket, {});
    if (users === 0) return;
    source = new EventSource(`${LIVE_PATH}?ticket=${encodeURIComponent(ticket)}`);
    source.addEventListener('open', () => useLiveStore.setState({ connected: true }));
    source.addEventListener(liveEvents.snapshot, (e) => {
      const parsed = LiveSnapshot.safeParse(JSON.parse((e as MessageEvent<string>).data));
      if (parsed.success) put(parsed.data.states);
    });
    source.addEventListener(liveEvents.state, (e) => {
      const parsed = LiveState.safeParse(JSON.parse((e as MessageEvent<string>).data));
      if (parsed.success) put([parsed.data]);
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
