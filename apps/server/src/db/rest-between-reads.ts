/** The shortest rest on PGlite: a cheap call's few queries, after a read too short to time. */
const PGLITE_MIN_REST_MS = 4;

/**
 * PGlite runs in this process and answers one query at a time, each one holding the event loop while it
 * runs: a heavy read or export is cut into bounded reads, and after each one it rests as long as that read
 * took (`readMs`, at least a few milliseconds), so it never has more than half of the process, however slow
 * the machine is at the moment. Other calls (a cheap one makes a few queries and a few turns of the event
 * loop: its request, its queries, its answer) run in that rest instead of each waiting behind another read.
 * A fixed pause of a few milliseconds was shorter than a cheap call's turns on a loaded machine, which then
 * waited behind read after read. On PostgreSQL the database serves calls side by side: a turn of the event
 * loop is enough.
 */
export const restBetweenReads = (embedded: boolean, readMs = 0) =>
  new Promise<void>((resolve) =>
    embedded ? setTimeout(resolve, Math.max(readMs, PGLITE_MIN_REST_MS)) : setImmediate(resolve),
  );
