import { auditLogList, type CallRequest } from '@fleet/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { callApi } from '../../lib/api-client';

export const auditKeys = {
  all: ['audit'] as const,
  list: (q: CallRequest<typeof auditLogList>) => ['audit', 'list', q] as const,
};

/** One page of the audit log, newest first. */
export const useAuditLog = (q: CallRequest<typeof auditLogList>) =>
  useQuery({
    queryKey: auditKeys.list(q),
    queryFn: ({ signal }) => callApi(auditLogList, q, { signal }),
    placeholderData: keepPreviousData,
  });
