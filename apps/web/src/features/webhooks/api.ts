import {
  webhookAdd,
  webhookDelete,
  webhookDeliveryList,
  webhookList,
  webhookUpdate,
  type CallRequest,
} from '@fleet/contract';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../lib/api-client';

export const webhookKeys = {
  all: ['webhooks'] as const,
  list: () => [...webhookKeys.all, 'list'] as const,
  deliveries: (q: CallRequest<typeof webhookDeliveryList>) => [...webhookKeys.all, 'deliveries', q] as const,
};

export const useWebhooks = () =>
  useQuery({ queryKey: webhookKeys.list(), queryFn: ({ signal }) => callApi(webhookList, {}, { signal }) });

export const useWebhookDeliveries = (q: CallRequest<typeof webhookDeliveryList>) =>
  useQuery({
    queryKey: webhookKeys.deliveries(q),
    queryFn: ({ signal }) => callApi(webhookDeliveryList, q, { signal }),
    placeholderData: keepPreviousData,
    refetchInterval: 15_000,
  });

function useInvalidating<T, R>(fn: (v: T) => Promise<R>) {
  const qc = useQueryClient();
  return useMutation({ mutationFn: fn, onSuccess: () => qc.invalidateQueries({ queryKey: webhookKeys.all }) });
}

export const useAddWebhook = () => useInvalidating((v: CallRequest<typeof webhookAdd>) => callApi(webhookAdd, v));
export const useUpdateWebhook = () =>
  useInvalidating((v: CallRequest<typeof webhookUpdate>) => callApi(webhookUpdate, v));
export const useDeleteWebhook = () => useInvalidating((id: number) => callApi(webhookDelete, { id }));
