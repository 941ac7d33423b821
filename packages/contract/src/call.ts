import type { z } from 'zod';
import type { FromDb } from './wire.js';

/** One API call of docs/product.md §7: its path and the schemas of both directions. */
export interface Call<Req extends z.ZodType = z.ZodType, Res extends z.ZodType = z.ZodType> {
  path: `/api/${string}`;
  request: Req;
  response: Res;
}

export const defineCall = <Req extends z.ZodType, Res extends z.ZodType>(
  path: `/api/${string}`,
  request: Req,
  response: Res,
): Call<Req, Res> => ({ path, request, response });

export type CallRequest<C extends Call> = z.input<C['request']>;
export type CallResponse<C extends Call> = z.output<C['response']>;
/** What a server handler returns: the response before its schema shapes it (rows as the database gives them, wire.ts). */
export type CallResult<C extends Call> = FromDb<C['response']>;
