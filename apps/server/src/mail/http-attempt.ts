/** The outcome of one outbound POST: the answer's status (null: none came) and why it failed (null: 2xx). */
export interface HttpAttempt {
  status: number | null;
  error: string | null;
}

/**
 * One delivery attempt over HTTP, as the webhook and push dispatchers make it: never follows a redirect
 * (a 3xx is a failure, so a receiver cannot bounce the call to another host), gives up after `timeoutMs`,
 * and turns a refused connection, a timeout or a non-2xx answer into an error text for the outbox row.
 * With `detail`, the first 200 characters of a failed answer's body go into the error.
 */
export async function postOnce(
  url: string,
  init: { headers: Record<string, string>; body: string | Uint8Array | null; timeoutMs: number; detail?: boolean },
): Promise<HttpAttempt> {
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers: init.headers,
      body: init.body,
      redirect: 'manual',
      signal: AbortSignal.timeout(init.timeoutMs),
    });
    const ok = res.status >= 200 && res.status < 300;
    const text = init.detail && !ok ? await res.text().catch(() => '') : '';
    if (!text) await res.body?.cancel().catch(() => undefined);
    return { status: res.status, error: ok ? null : `HTTP ${res.status}${text ? `: ${text.slice(0, 200)}` : ''}` };
  } catch (err) {
    const cause = err instanceof Error && err.cause instanceof Error ? `: ${err.cause.message}` : '';
    return { status: null, error: `${err instanceof Error ? err.message : String(err)}${cause}` };
  }
}
