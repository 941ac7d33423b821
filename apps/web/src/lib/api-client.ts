import { ApiError, errorMessages, type Call, type CallRequest, type CallResponse } from '@fleet/contract';
import { useSession } from './session-store';

/** A failed call: HTTP status, the server's stable code, its Japanese message and per-field errors. */
export class ApiClientError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly errors: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'ApiClientError';
  }
}

/** The only caller of fetch: POST JSON with the session's token, answers parsed by the contract. */
export async function callApi<C extends Call>(call: C, body?: CallRequest<C>, init?: { signal?: AbortSignal }): Promise<CallResponse<C>> {
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
  return call.response.parse(json) as CallResponse<C>;
}

/** The message to show for a failed call, falling back to the screen's own wording. */
export const messageOf = (error: unknown, fallback: string = errorMessages.generic) =>
  error instanceof ApiClientError && error.message ? error.message : fallback;
