/**
 * One CSV export per account at a time: an export is the heaviest read there is, and on the
 * embedded database a few at once would take turns with every other call. Kept in this process:
 * with several servers on PostgreSQL each allows one (the database serves them side by side).
 */
export function createExportGate() {
  const running = new Set<string>();
  /** A release function (safe to call more than once), or undefined while the account's export runs. */
  return (accountId: string): (() => void) | undefined => {
    if (running.has(accountId)) return undefined;
    running.add(accountId);
    return () => running.delete(accountId);
  };
}
