import { ALERT_LIVE_EVENT, AlertLiveCount, LIVE_PATH, liveEvents, liveTicket } from '@fleet/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { callApi } from '../../lib/api-client';
import { alertKeys } from './api';

/** After a dropped stream (or a failed ticket), a new one is opened this much later. */
const RETRY_MS = 5_000;
const json = (e: Event): unknown => {
  try {
    return JSON.parse((e as MessageEvent<string>).data);
  } catch {
    return null;
  }
};

/**
 * The unacknowledged count pushed by the server (the live stream with `?topics=alerts`: at once, and
 * whenever an alert of the company is added or acknowledged, on any instance), written into the
 * count's query, and the inbox's lists asked again when it changed. Returns whether the stream is
 * open: while it is, the count need not be polled.
 */
export function useLiveAlertCount(): boolean {
  const qc = useQueryClient();
  const [connected, setConnected] = useState(false);
  useEffect(() => {
    let source: EventSource | null = null;
    let retry: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;
    const open = async () => {
      try {
        const { ticket } = await callApi(liveTicket, {});
        if (stopped) return;
        source = new EventSource(`${LIVE_PATH}?topics=alerts&ticket=${encodeURIComponent(ticket)}`);
        source.addEventListener('open', () => setConnected(true));
        source.addEventListener(ALERT_LIVE_EVENT, (e) => {
          const parsed = AlertLiveCount.safeParse(json(e));
          if (!parsed.success) return;
          const before = qc.getQueryData<AlertLiveCount>(alertKeys.count());
          qc.setQueryData(alertKeys.count(), parsed.data);
          if (before && before.unacknowledged !== parsed.data.unacknowledged)
            void qc.invalidateQueries({ queryKey: alertKeys.lists() });
        });
        // A ticket is good once: a dropped stream is reopened with a new one (EventSource's own retry would reuse it).
        const reconnect = () => {
          source?.close();
          source = null;
          setConnected(false);
          if (!stopped) retry = setTimeout(() => void open(), RETRY_MS);
        };
        source.addEventListener(liveEvents.expired, reconnect);
        source.addEventListener('error', reconnect);
      } catch {
        if (!stopped) retry = setTimeout(() => void open(), RETRY_MS);
      }
    };
    void open();
    return () => {
      stopped = true;
      clearTimeout(retry);
      source?.close();
    };
  }, [qc]);
  return connected;
}
