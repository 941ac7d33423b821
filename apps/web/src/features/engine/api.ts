import {
  carDeleteReserveEngineCmd,
  carDeleteReserveEngineCmdRequest,
  carEngineStateReserve,
  carEngineStateReserveRequest,
  carGetReserveCmd,
  carGetReserveCmdHistory,
  carReserveCmd,
  ENGINE_CMD_IDX,
  getReserveRequests,
  type CallRequest,
} from '@fleet/contract';
import { queryOptions, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { callApi } from '../../lib/api-client';
import { useLiveStore } from '../../lib/live-feed';
import { useDomainMutation } from '../../lib/mutation';

/** Everything of the engine screen lives under ['engine', car_data_id] so one invalidation refreshes it. */
export const engineKeys = {
  all: ['engine'] as const,
  slot: (dataId: string, idx: number) => ['engine', dataId, 'slot', idx] as const,
  history: (dataId: string) => ['engine', dataId, 'history'] as const,
  requests: (carId: string) => ['engine', 'requests', carId] as const,
  /** The caller's right and step-up (from /api/me): refreshed with everything else after a command. */
  authority: () => ['engine', 'authority'] as const,
};

/** Active commands are polled so the screen follows the terminal (1 → 2 → 3) without a reload. */
export const reserveCmdQuery = (car_data_id: string, cmd_idx = ENGINE_CMD_IDX) =>
  queryOptions({
    queryKey: engineKeys.slot(car_data_id, cmd_idx),
    queryFn: ({ signal }) => callApi(carGetReserveCmd, { car_data_id, cmd_idx }, { signal }),
    refetchInterval: (q) => (q.state.data && (q.state.data.state === 1 || q.state.data.state === 2) ? 2000 : 15_000),
  });
export const historyQuery = (car_data_id: string) =>
  queryOptions({
    queryKey: engineKeys.history(car_data_id),
    queryFn: ({ signal }) => callApi(carGetReserveCmdHistory, { car_data_id, limit: 50 }, { signal }),
    refetchInterval: 10_000,
  });
export const requestsQuery = (car_id: string) =>
  queryOptions({
    queryKey: engineKeys.requests(car_id),
    queryFn: ({ signal }) => callApi(getReserveRequests, { car_id }, { signal }),
    refetchInterval: 10_000,
  });

const domain = engineKeys.all[0];
export const useReserveEngine = () =>
  useDomainMutation(domain, (v: CallRequest<typeof carEngineStateReserve>) => callApi(carEngineStateReserve, v));
export const useReserveCommand = () =>
  useDomainMutation(domain, (v: CallRequest<typeof carReserveCmd>) => callApi(carReserveCmd, v));
export const useDeleteCommand = () =>
  useDomainMutation(domain, (v: { car_data_id: string; cmd_idx: number }) => callApi(carDeleteReserveEngineCmd, v));
export const useCreateRequest = () =>
  useDomainMutation(domain, (request: CallRequest<typeof carEngineStateReserveRequest>['request']) =>
    callApi(carEngineStateReserveRequest, { request }),
  );
export const useDeleteRequest = () =>
  useDomainMutation(domain, (request_id: string) => callApi(carDeleteReserveEngineCmdRequest, { request_id }));

/**
 * The status panel follows the live push; the command slot and history follow the same push: a
 * terminal's report (its engine line, a command's result) refreshes them at once instead of at the
 * next poll, so the panel and the history never disagree for seconds.
 */
export function useEngineFollowsLive(car_data_id: string) {
  const qc = useQueryClient();
  const pushed = useLiveStore((s) => s.states[car_data_id]);
  const seen = useRef<string | null>(null);
  const mark = pushed ? `${pushed.engine_line ?? ''}|${pushed.recorded_at ?? ''}` : null;
  useEffect(() => {
    if (mark === null) return;
    if (seen.current !== null && seen.current !== mark)
      void qc.invalidateQueries({ queryKey: ['engine', car_data_id] });
    seen.current = mark;
  }, [mark, car_data_id, qc]);
}

/**
 * A request leaving the pending list has fired (or was cancelled): the command slot and history it
 * changed are refreshed at once, not at their next poll up to 15 s later.
 */
export function useEngineFollowsRequests(pending: number | undefined) {
  const qc = useQueryClient();
  const seen = useRef<number | undefined>(undefined);
  useEffect(() => {
    if (pending === undefined) return;
    if (seen.current !== undefined && pending < seen.current) void qc.invalidateQueries({ queryKey: engineKeys.all });
    seen.current = pending;
  }, [pending, qc]);
}
