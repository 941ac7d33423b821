import {
  accountAdd,
  accountDelete,
  accountGetDetail,
  accountUpdate,
  passwordReset,
  type CallRequest,
} from '@fleet/contract';
import { queryOptions, useMutation } from '@tanstack/react-query';
import { callApi } from '../../lib/api-client';
import { useDomainMutation } from '../../lib/mutation';

/** Query keys of the account domain; the list shell uses `accountKeys.all[0]` as its id. */
export const accountKeys = {
  all: ['account'] as const,
  detail: (id: string) => ['account', 'detail', id] as const,
};

export const accountDetailQuery = (account_id: string) =>
  queryOptions({ queryKey: accountKeys.detail(account_id), queryFn: ({ signal }) => callApi(accountGetDetail, { account_id }, { signal }) });

const useInvalidating = <V>(fn: (v: V) => Promise<unknown>) => useDomainMutation(accountKeys.all[0], fn);

export const useAddAccount = () => useInvalidating((info: CallRequest<typeof accountAdd>['info']) => callApi(accountAdd, { info }));
export const useUpdateAccount = () => useInvalidating((info: CallRequest<typeof accountUpdate>['info']) => callApi(accountUpdate, { info }));
export const useDeleteAccount = () => useInvalidating((v: { account_id: string; isDelete: boolean }) => callApi(accountDelete, v));
export const useChangePassword = () => useMutation({ mutationFn: (info: CallRequest<typeof passwordReset>['info']) => callApi(passwordReset, { info }) });
