import { me, stepUp, type CallRequest, type CallResponse } from '@fleet/contract';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../lib/api-client';
import { engineKeys } from './api';

export interface EngineAuthority {
  /** エンジン制御権限: may permit / prohibit engine start and make or cancel requests. */
  engine_control: boolean;
  /** Until when this session may prohibit without the password again; null: not stepped up. */
  stepped_up_until: string | null;
}

/** The caller's engine right and step-up, as the server sees them now (docs/engine-control.md). */
export const engineAuthorityQuery = () =>
  queryOptions({
    queryKey: engineKeys.authority(),
    queryFn: ({ signal }) => callApi(me, {}, { signal }),
    select: (m): EngineAuthority => ({ engine_control: m.engine_control, stepped_up_until: m.stepped_up_until }),
  });

/** Whether a prohibit can go without the password: a step-up that has not run out yet. */
export const isSteppedUp = (until: string | null | undefined, now = Date.now()) => !!until && Date.parse(until) > now;

/**
 * The right to control engines: undefined while it is loading. Should /api/me fail, the controls stay
 * (the server refuses what the account may not do, with its own message).
 */
export function useEngineRight(): boolean | undefined {
  const q = useQuery(engineAuthorityQuery());
  return q.isError ? true : q.data?.engine_control;
}

/** Re-enters the password; the session may then prohibit for STEP_UP_MINUTES. */
export function useStepUp() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (v: CallRequest<typeof stepUp>) => callApi(stepUp, v),
    onSuccess: ({ stepped_up_until }) =>
      qc.setQueryData(
        engineKeys.authority(),
        (old: CallResponse<typeof me> | undefined) => old && { ...old, stepped_up_until },
      ),
  });
}
