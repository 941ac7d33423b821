import { checkToken } from '@fleet/contract';
import { callApi } from './api-client';

/** The session guard's check call, in a module of its own: the guard loads it (and zod) only for a signed-in screen. */
export const checkSessionToken = (account_id: string, token: string) => callApi(checkToken, { account_id, token });
