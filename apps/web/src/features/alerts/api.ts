import { alertAck, alertAckMany, alertCount, alertList, carEvents, type AlertListRequest } from '@fleet/contract';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { callApi } from '../../lib/api-client';
import { useDomainMutation } from '../../lib/mutation';

export const alertKeys = {
  all: ['alerts'] as const,
  lists: () => ['alerts', 'list'] as const,
  list: (body: AlertListRequest) => ['alerts', 'list', body] as const,
  count: () => ['alerts', 'count'] as const,
  events: (carDataId: string, from: string, to: string) => ['alerts', 'events', carDataId, from, to] as const,
};

/** How often the badge and the inbox ask while the count is not pushed (the live stream is down). */
export const ALERT_COUNT_INTERVAL_MS = 15_000;

/** One page of the inbox; `enabled` false (a range with one end) keeps the page shown before. */
export const alertListQuery = (body: AlertListRequest, enabled = true) =>
  queryOptions({
    queryKey: alertKeys.list(body),
    queryFn: ({ signal }) => callApi(alertList, body, { signal }),
    enabled,
    placeholderData: keepPreviousData,
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
export const useAckAlerts = () =>
  useDomainMutation(alertKeys.all[0], (alert_ids: string[]) => callApi(alertAckMany, { alert_ids }));
