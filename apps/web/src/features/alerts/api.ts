import { alertAck, alertCount, alertList, carEvents } from '@fleet/contract';
import { queryOptions } from '@tanstack/react-query';
import { callApi } from '../../lib/api-client';
import { useDomainMutation } from '../../lib/mutation';

export const alertKeys = {
  all: ['alerts'] as const,
  lists: () => ['alerts', 'list'] as const,
  list: (unacknowledged: boolean, from: string, to: string) => ['alerts', 'list', unacknowledged, from, to] as const,
  count: () => ['alerts', 'count'] as const,
  events: (carDataId: string, from: string, to: string) => ['alerts', 'events', carDataId, from, to] as const,
};

/** How often the badge and the inbox ask while the count is not pushed (the live stream is down). */
export const ALERT_COUNT_INTERVAL_MS = 15_000;

export const alertListQuery = (unacknowledged: boolean, from = '', to = '') =>
  queryOptions({
    queryKey: alertKeys.list(unacknowledged, from, to),
    queryFn: ({ signal }) => callApi(alertList, { unacknowledged, from, to }, { signal }),
    refetchInterval: ALERT_COUNT_INTERVAL_MS,
  });
export const alertCountQuery = () =>
  queryOptions({
    queryKey: alertKeys.count(),
    queryFn: ({ signal }) => callApi(alertCount, {}, { signal }),
    refetchInterval: ALERT_COUNT_INTERVAL_MS,
  });
export const carEventsQuery = (car_data_id: string, from: string, to: string) =>
  queryOptions({
    queryKey: alertKeys.events(car_data_id, from, to),
    queryFn: ({ signal }) => callApi(carEvents, { car_data_id, from, to }, { signal }),
    enabled: !!car_data_id,
  });

export const useAckAlert = () =>
  useDomainMutation(alertKeys.all[0], (alert_id: string) => callApi(alertAck, { alert_id }));
