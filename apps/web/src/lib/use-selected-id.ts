import { sessionSelections } from '@fleet/contract';
import { useEffect } from 'react';
import { useParams } from 'react-router';
import { callApi } from './api-client';
import { useSession } from './session-store';

type SelectedKey = 'user_id' | 'car_id' | 'car_device_id';

/** The session_* call of each key (SPEC.md §7), with its body. */
const rememberOnServer: Record<SelectedKey, (id: string) => Promise<unknown>> = {
  user_id: (user_id) => callApi(sessionSelections.user_id, { user_id }),
  car_id: (car_id) => callApi(sessionSelections.car_id, { car_id }),
  car_device_id: (car_device_id) => callApi(sessionSelections.car_device_id, { car_device_id }),
};

/** A `{id?}` route parameter (SPEC.md §2): the id in the URL, else the one last selected in this session. */
export function useSelectedId(key: SelectedKey): string {
  const fromUrl = useParams()[key];
  const remembered = useSession((s) => s[key]);
  return fromUrl || remembered || '';
}

/**
 * Remembers the record a screen opened, in the client store and (best effort)
 * in the server-side session of the session_* calls.
 */
export function useRememberSelection(key: SelectedKey, id: string | undefined) {
  useEffect(() => {
    if (!id) return;
    useSession.getState().select({ [key]: id });
    rememberOnServer[key](id).catch(() => undefined);
  }, [key, id]);
}
