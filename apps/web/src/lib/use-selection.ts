import { sessionSelections } from '@fleet/contract';
import { useEffect } from 'react';
import { useParams } from 'react-router';
import { callApi } from './api-client';
import { useSession } from './session-store';

/** The ids a `{id?}` route parameter can name (docs/product.md §2, §7). */
export type SelectionKey = 'account_id' | 'user_id' | 'car_id' | 'car_data_id' | 'car_device_id';
type Remembered = Exclude<SelectionKey, 'account_id'>;

/** A key that belongs to another record: when the URL names that record, the remembered one is not used. */
const belongsTo: Partial<Record<SelectionKey, SelectionKey>> = { car_data_id: 'car_id' };

/** The session_* call of each key remembered on the server (best effort); the terminal follows its vehicle. */
const rememberOnServer: Partial<Record<Remembered, (id: string) => Promise<unknown>>> = {
  user_id: (user_id) => callApi(sessionSelections.user_id, { user_id }),
  car_id: (car_id) => callApi(sessionSelections.car_id, { car_id }),
  car_device_id: (car_device_id) => callApi(sessionSelections.car_device_id, { car_device_id }),
};

/**
 * The one resolver of selected ids: the id in the URL, else the one last selected in this session
 * (for `account_id`, the signed-in account's own). A terminal's IMEI is taken from the session only
 * when the URL names no vehicle.
 */
export function useSelection(key: SelectionKey): string {
  const params = useParams();
  const remembered = useSession((s) => s[key]);
  const parent = belongsTo[key];
  return params[key] || (parent && params[parent] ? '' : remembered) || '';
}

/**
 * Remembers the records a screen opened, in the client store and (best effort) in the server-side
 * session of the session_* calls. Empty ids are left out; nothing happens until one is known.
 */
export function useRememberSelection(picked: Partial<Record<Remembered, string | null | undefined>>) {
  const entries = (Object.entries(picked) as [Remembered, string | null | undefined][]).filter(
    (e): e is [Remembered, string] => !!e[1],
  );
  const mark = JSON.stringify(entries);
  useEffect(() => {
    const chosen = JSON.parse(mark) as [Remembered, string][];
    if (!chosen.length) return;
    useSession.getState().select(Object.fromEntries(chosen));
    for (const [key, id] of chosen) rememberOnServer[key]?.(id).catch(() => undefined);
  }, [mark]);
}
