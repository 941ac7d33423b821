import { companyTerminalPolicy, companyTerminalPolicyUpdate, type CallRequest } from '@fleet/contract';
import { queryOptions } from '@tanstack/react-query';
import { callApi } from '../../lib/api-client';
import { useDomainMutation } from '../../lib/mutation';

/** Query keys of a company's terminal-identity settings. */
export const terminalPolicyKeys = {
  all: ['terminal-policy'] as const,
  policy: (companyId: string) => ['terminal-policy', companyId] as const,
};

export const companyTerminalPolicyQuery = (company_id: string) =>
  queryOptions({
    queryKey: terminalPolicyKeys.policy(company_id),
    queryFn: ({ signal }) => callApi(companyTerminalPolicy, { company_id }, { signal }),
  });

export const useUpdateTerminalPolicy = () =>
  useDomainMutation(terminalPolicyKeys.all[0], (v: CallRequest<typeof companyTerminalPolicyUpdate>) =>
    callApi(companyTerminalPolicyUpdate, v),
  );
