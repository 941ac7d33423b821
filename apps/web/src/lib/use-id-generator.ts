import { generateUniqueId, type Call } from '@fleet/contract';
import { queryOptions } from '@tanstack/react-query';
import type { z } from 'zod';
import { callApi, type Takes } from './api-client';

/** An exist check as generateCheckedId calls it; that its request takes the check is checked with `Takes`. */
type ExistCheck = Call<z.ZodType, z.ZodType<{ isExist: boolean }>>;

/**
 * New ids are made on the client (docs/product.md §5): random base64 of 8-16
 * characters, checked with the server's exist check, at most 10 attempts.
 */
export const generateCheckedId = <
  Item extends string,
  C extends Call & Takes<C, { check_item: Item; check_value: string }>,
>(
  existCheck: C & ExistCheck,
  check_item: Item,
) => generateUniqueId(async (id) => (await callApi<ExistCheck>(existCheck, { check_item, check_value: id })).isExist);

/** The query of a fresh id for an add screen: asked once per visit, never cached nor retried. */
export const newIdQuery = <T>(queryKey: readonly unknown[], make: (signal: AbortSignal) => Promise<T>) =>
  queryOptions({ queryKey, queryFn: ({ signal }) => make(signal), staleTime: Infinity, gcTime: 0, retry: false });
