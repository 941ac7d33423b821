import {
  companyTotpPolicy,
  companyTotpPolicyUpdate,
  totpDisable,
  totpEnable,
  totpRecoveryCodes,
  totpSetup,
  totpStatus,
  type CallRequest,
} from '@fleet/contract';
import { queryOptions, useMutation } from '@tanstack/react-query';
import { callApi } from '../../lib/api-client';
import { useDomainMutation } from '../../lib/mutation';

/** Query keys of 二段階認証: the own account's status and companies' policies. */
export const totpKeys = {
  all: ['totp'] as const,
  status: () => ['totp', 'status'] as const,
  policy: (companyId: string) => ['totp', 'policy', companyId] as const,
};

export const totpStatusQuery = () =>
  queryOptions({
    queryKey: totpKeys.status(),
    queryFn: ({ signal }) => callApi(totpStatus, {}, { signal }),
    staleTime: 60_000,
  });

export const companyTotpPolicyQuery = (company_id: string) =>
  queryOptions({
    queryKey: totpKeys.policy(company_id),
    queryFn: ({ signal }) => callApi(companyTotpPolicy, { company_id }, { signal }),
  });

/** A new pending secret each time: the QR code to scan (not cached: it is shown once). */
export const useTotpSetup = () => useMutation({ mutationFn: () => callApi(totpSetup, {}) });

const useInvalidating = <V, R>(fn: (v: V) => Promise<R>) => useDomainMutation(totpKeys.all[0], fn);

export const useTotpEnable = () => useInvalidating((v: CallRequest<typeof totpEnable>) => callApi(totpEnable, v));
export const useTotpDisable = () => useInvalidating((v: CallRequest<typeof totpDisable>) => callApi(totpDisable, v));
/** New recovery codes (the old ones stop working); the status's count changes with them. */
export const useTotpRecoveryCodes = () =>
  useInvalidating((v: CallRequest<typeof totpRecoveryCodes>) => callApi(totpRecoveryCodes, v));
export const useUpdateTotpPolicy = () =>
  useInvalidating((v: CallRequest<typeof companyTotpPolicyUpdate>) => callApi(companyTotpPolicyUpdate, v));
