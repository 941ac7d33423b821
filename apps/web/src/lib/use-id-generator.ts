import { generateUniqueId, type Call } from '@fleet/contract';
import { callApi } from './api-client';

/**
 * New ids are made on the client (SPEC.md §5): random base64 of 8-16
 * characters, checked with the server's exist check, at most 10 attempts.
 */
export const generateCheckedId = (existCheck: Call, check_item: string) =>
  generateUniqueId(
    async (id) =>
      ((await callApi(existCheck, { check_item, check_value: id } as never)) as { isExist: boolean }).isExist,
  );
