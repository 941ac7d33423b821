import { groupList, groupNotify, pushPublicKey, pushSubscribe, pushUnsubscribe } from '@fleet/contract';
import { queryOptions } from '@tanstack/react-query';
import { useCallback, useEffect, useState } from 'react';
import { ApiClientError, callApi } from '../../lib/api-client';

export const notifyKeys = {
  all: ['notify'] as const,
  settings: (accountId: string) => [...notifyKeys.all, accountId] as const,
  groups: () => [...notifyKeys.all, 'groups'] as const,
  group: (groupId: string) => [...notifyKeys.all, 'group', groupId] as const,
  history: ['notify-history'] as const,
};

/** The groups whose settings the caller may set (a group-limited manager: his own). */
export const notifyGroupsQuery = () =>
  queryOptions({
    queryKey: notifyKeys.groups(),
    queryFn: ({ signal }) => callApi(groupList, {}, { signal }),
  });
export const groupNotifyQuery = (groupId: string) =>
  queryOptions({
    queryKey: notifyKeys.group(groupId),
    queryFn: ({ signal }) => callApi(groupNotify, { group_id: groupId }, { signal }),
    enabled: !!groupId,
  });

/** Where the browser stands: no Push API (or not a secure context), notifications blocked, subscribed or not. */
export type PushState = 'checking' | 'unsupported' | 'denied' | 'subscribed' | 'unsubscribed';

const SW_URL = '/sw.js';

export const pushSupported = () =>
  typeof window !== 'undefined' &&
  window.isSecureContext &&
  'serviceWorker' in navigator &&
  'PushManager' in window &&
  'Notification' in window;

async function browserSubscription(): Promise<PushSubscription | null> {
  const reg = await navigator.serviceWorker.getRegistration(SW_URL);
  return reg ? reg.pushManager.getSubscription() : null;
}

/** VAPID public key (base64url) as the bytes PushManager.subscribe wants. */
function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const b64 = base64url.replace(/-/g, '+').replace(/_/g, '/');
  const raw = atob(b64 + '='.repeat((4 - (b64.length % 4)) % 4));
  const out = new Uint8Array(new ArrayBuffer(raw.length));
  for (let i = 0; i < raw.length; i++) out[i] = raw.charCodeAt(i);
  return out;
}

async function subscribeBrowser(): Promise<void> {
  if ((await Notification.requestPermission()) !== 'granted') throw new Error('denied');
  const { public_key } = await callApi(pushPublicKey, {});
  await navigator.serviceWorker.register(SW_URL);
  const reg = await navigator.serviceWorker.ready;
  let sub = await reg.pushManager.getSubscription();
  const key = keyBytes(public_key);
  const sameKey = (s: PushSubscription) => {
    const k = s.options.applicationServerKey;
    return !!k && new Uint8Array(k).every((b, i) => b === key[i]) && k.byteLength === key.length;
  };
  if (sub && !sameKey(sub)) {
    await sub.unsubscribe();
    sub = null;
  }
  sub ??= await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key });
  const json = sub.toJSON();
  await callApi(pushSubscribe, {
    endpoint: json.endpoint ?? sub.endpoint,
    keys: { p256dh: json.keys?.p256dh ?? '', auth: json.keys?.auth ?? '' },
    user_agent: navigator.userAgent.slice(0, 500),
  });
}

async function unsubscribeBrowser(): Promise<void> {
  const sub = await browserSubscription();
  if (!sub) return;
  try {
    await callApi(pushUnsubscribe, { endpoint: sub.endpoint });
  } catch (e) {
    // Already gone on the server (another account took it, or the push service dropped it): unsubscribe here anyway.
    if (!(e instanceof ApiClientError && e.status === 404)) throw e;
  }
  await sub.unsubscribe();
}

/** This browser's push subscription: its state, and subscribe / unsubscribe. */
export function useBrowserPush() {
  const [state, setState] = useState<PushState>('checking');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);

  const refresh = useCallback(async () => {
    if (!pushSupported()) return setState('unsupported');
    if (Notification.permission === 'denied') return setState('denied');
    try {
      setState((await browserSubscription()) ? 'subscribed' : 'unsubscribed');
    } catch {
      setState('unsupported');
    }
  }, []);
  useEffect(() => {
    void refresh();
  }, [refresh]);

  const run = (fn: () => Promise<void>) => async () => {
    setBusy(true);
    setError(null);
    try {
      await fn();
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
      await refresh();
    }
  };
  return { state, busy, error, subscribe: run(subscribeBrowser), unsubscribe: run(unsubscribeBrowser) };
}
