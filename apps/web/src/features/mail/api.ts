import { mailOutboxList, type CallRequest } from '@fleet/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { callApi } from '../../lib/api-client';

export const mailKeys = {
  all: ['mail'] as const,
  outbox: (q: CallRequest<typeof mailOutboxList>) => ['mail', 'outbox', q] as const,
};

/** One page of the outbox; followed every 15 s, as the sender retries in the background. */
export const useMailOutbox = (q: CallRequest<typeof mailOutboxList>) =>
  useQuery({
    queryKey: mailKeys.outbox(q),
    queryFn: ({ signal }) => callApi(mailOutboxList, q, { signal }),
    placeholderData: keepPreviousData,
    refetchInterval: 15_000,
  });
