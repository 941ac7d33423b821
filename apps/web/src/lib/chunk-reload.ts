const KEY = 'fleet-console/chunk-reload-at';

/** True for the error a browser gives when a lazily loaded chunk is gone (a new deploy). */
export const isChunkLoadError = (e: unknown) =>
  e instanceof Error &&
  /Failed to fetch dynamically imported module|error loading dynamically imported module|Importing a module script failed|Unable to preload CSS/i.test(
    e.message,
  );

/** Reloads the page once (docs/product.md §8: a failed chunk load reloads); a second failure within 10 s shows the error. */
export function reloadForChunkError(): boolean {
  const last = Number(sessionStorage.getItem(KEY) ?? 0);
  if (Date.now() - last < 10_000) return false;
  sessionStorage.setItem(KEY, String(Date.now()));
  window.location.reload();
  return true;
}
