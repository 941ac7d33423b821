import {
  accountAdd,
  accountExistCheck,
  accountDelete,
  accountGetDetail,
  accountUpdate,
  me,
  passwordReset,
  type CallRequest,
} from '@fleet/contract';
import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import { callApi } from '../../lib/api-client';
import { useDomainMutation } from '../../lib/mutation';
import { generateCheckedId, newIdQuery } from '../../lib/use-id-generator';

/** Query keys of the account domain; the list shell uses `accountKeys.all[0]` as its id. */
export const accountKeys = {
  all: ['account'] as const,
  detail: (id: string) => ['account', 'detail', id] as const,
  me: () => ['account', 'me'] as const,
};

/** The signed-in account's own company name (null: head office), which only the super admin could look up by id. */
export const ownCompanyNameQuery = () =>
  queryOptions({
    queryKey: accountKeys.me(),
    queryFn: ({ signal }) => callApi(me, {}, { signal }),
    select: (m) => m.company_name,
  });

/** Whether the signed-in account is limited to vehicle groups (it then changes no group). */
export const ownGroupsLimitedQuery = () =>
  queryOptions({
    queryKey: accountKeys.me(),
    queryFn: ({ signal }) => callApi(me, {}, { signal }),
    select: (m) => m.groups_limited,
  });

export const accountDetailQuery = (account_id: string) =>
  queryOptions({
    queryKey: accountKeys.detail(account_id),
    queryFn: ({ signal }) => callApi(accountGetDetail, { account_id }, { signal }),
  });

export const useAccountDetail = (account_id: string) => useQuery(accountDetailQuery(account_id));

/** A fresh account id, checked with the server (docs/product.md §5). */
export const useNewAccountId = () =>
  useQuery(newIdQuery([...accountKeys.all, 'new-id'], () => generateCheckedId(accountExistCheck, 'account_id')));

const useInvalidating = <V>(fn: (v: V) => Promise<unknown>) => useDomainMutation(accountKeys.all[0], fn);

export const useAddAccount = () =>
  useInvalidating((info: CallRequest<typeof accountAdd>['info']) => callApi(accountAdd, { info }));
export const useUpdateAccount = () =>
  useInvalidating((info: CallRequest<typeof accountUpdate>['info']) => callApi(accountUpdate, { info }));
export const useDeleteAccount = () =>
  useInvalidating((v: { account_id: string; isDelete: boolean }) => callApi(accountDelete, v));
export const useChangePassword = () =>
  useMutation({ mutationFn: (info: CallRequest<typeof passwordReset>['info']) => callApi(passwordReset, { info }) });
