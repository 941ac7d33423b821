import { ApiError, errorMessages, type Call, type CallRequest, type CallResponse } from '@fleet/contract';
import { ApiClientError } from './api-error';
import { fastParser, type FastParser } from './fast-parse';
import { useSession } from './session-store';

export { ApiClientError, messageOf } from './api-error';

/**
 * For code generic over a call C that sends it `Body`: `C extends Call & Takes<C, Body>` compiles only where the
 * call's request takes that body. (A call's request type is covariant, so a plain `Call<z.ZodType<…, Body>>`
 * constraint could only bound it from above: it would accept a call that refuses part of what is sent.)
 */
export type Takes<C extends Call, Body> = [Body] extends [CallRequest<C>] ? unknown : { 'request does not take': Body };

const fastParsers = new WeakMap<Call, FastParser<unknown>>();

/**
 * The only caller of fetch: POST JSON with the session's token, answers parsed by the contract.
 * `fast`: for answers of thousands of rows, the response schema's fast path (lib/fast-parse: the
 * same result, without zod's cost per field where the rows are plain).
 */
export async function callApi<C extends Call>(
  call: C,
  body?: CallRequest<C>,
  init?: { signal?: AbortSignal; fast?: boolean },
): Promise<CallResponse<C>> {
  const token = useSession.getState().token;
  let res: Response;
  try {
    res = await fetch(call.path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body ?? {}),
      signal: init?.signal,
    });
  } catch (e) {
    if ((e as Error).name === 'AbortError') throw e;
    throw new ApiClientError(0, 'NETWORK', 'サーバーに接続できません。ネットワークを確認してください。');
  }
  const json: unknown = await res.json().catch(() => null);
  if (!res.ok) {
    const err = ApiError.safeParse(json);
    if (err.success) throw new ApiClientError(res.status, err.data.code, err.data.message, err.data.errors);
    throw new ApiClientError(res.status, 'UNKNOWN', errorMessages.generic);
  }
  if (init?.fast) {
    let parse = fastParsers.get(call);
    if (!parse) fastParsers.set(call, (parse = fastParser(call.response)));
    const r = parse(json);
    if (r.success) return r.data as CallResponse<C>;
  }
  return call.response.parse(json) as CallResponse<C>;
}
