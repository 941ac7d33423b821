/** How long a heavy read pauses between chunks on PGlite: long enough for a cheap call's few queries. */
const PGLITE_PAUSE_MS = 4;

/**
 * PGlite runs in this process and answers one query at a time: a heavy read or export is cut into
 * chunks and pauses between them, so the queries of other calls (a cheap call makes two or three,
 * one after the other) run in between instead of each waiting behind a chunk. On PostgreSQL the
 * database serves calls side by side: a turn of the event loop is enough.
 */
export const breathe = (embedded: boolean) =>
  new Promise<void>((resolve) => (embedded ? setTimeout(resolve, PGLITE_PAUSE_MS) : setImmediate(resolve)));
