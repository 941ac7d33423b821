import { ApiClientError } from './api-client';
import { useSession } from './session-store';

/** Saves a Blob as a file through a temporary link. */
export function saveBlob(blob: Blob, filename: string) {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/**
 * Downloads a streamed export with the session's token, reporting the bytes
 * and lines received so far. Resolves to null when the server had nothing (204).
 * `json`: sent as a POST body (the report export) instead of a GET.
 */
export async function downloadStream(
  url: string,
  onProgress: (p: { bytes: number; lines: number }) => void,
  signal?: AbortSignal,
  json?: unknown,
): Promise<Blob | null> {
  const token = useSession.getState().token;
  const auth: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  const res = await fetch(
    url,
    json === undefined
      ? { headers: auth, signal }
      : {
          method: 'POST',
          headers: { ...auth, 'content-type': 'application/json' },
          body: JSON.stringify(json),
          signal,
        },
  );
  if (res.status === 204) return null;
  if (!res.ok || !res.body) {
    const body = (await res.json().catch(() => null)) as { message?: string; code?: string } | null;
    throw new ApiClientError(res.status, body?.code ?? 'UNKNOWN', body?.message ?? '');
  }
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  let lines = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    bytes += value.length;
    for (const b of value) if (b === 10) lines++;
    onProgress({ bytes, lines });
  }
  return new Blob(chunks as BlobPart[], { type: res.headers.get('content-type') ?? 'text/csv' });
}
