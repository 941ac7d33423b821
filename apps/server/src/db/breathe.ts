/**
 * PGlite runs in this process: while it answers one query nothing else runs, so a heavy read or
 * export is cut into chunks and gives the event loop a turn between them (other requests' queries
 * join PGlite's queue in that turn). On PostgreSQL the turn costs nothing.
 */
export const breathe = () => new Promise<void>((resolve) => setImmediate(resolve));
