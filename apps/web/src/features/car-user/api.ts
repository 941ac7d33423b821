import { userAdd, userDelete, userExistCheck, userGetDetail, userUpdate, type CarUserFormInput } from '@fleet/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callApi } from '../../lib/api-client';
import { useDomainMutation } from '../../lib/mutation';
import { generateCheckedId, newIdQuery } from '../../lib/use-id-generator';

/** Query keys of the customer (car user) domain; the customer list shell uses `carUserKeys.all[0]` as its id. */
export const carUserKeys = { all: ['carUser'] as const, detail: (id: string) => ['carUser', 'detail', id] as const };

export const carUserDetailQuery = (user_id: string) =>
  queryOptions({
    queryKey: carUserKeys.detail(user_id),
    queryFn: ({ signal }) => callApi(userGetDetail, { user_id }, { signal }),
    enabled: !!user_id,
  });

export const useCarUserDetail = (user_id: string) => useQuery(carUserDetailQuery(user_id));

/** A fresh customer id, checked with the server (docs/product.md §5). */
export const newCarUserIdQuery = () =>
  newIdQuery([...carUserKeys.all, 'new-id'], () => generateCheckedId(userExistCheck, 'user_id'));
export const useNewCarUserId = () => useQuery(newCarUserIdQuery());

export const useAddCarUser = () =>
  useDomainMutation(carUserKeys.all[0], (info: CarUserFormInput) => callApi(userAdd, { info }));
export const useUpdateCarUser = () =>
  useDomainMutation(carUserKeys.all[0], (info: CarUserFormInput) => callApi(userUpdate, { info }));
export const useDeleteCarUser = () =>
  useDomainMutation(carUserKeys.all[0], (v: { user_id: string; isDelete: boolean }) => callApi(userDelete, v));
