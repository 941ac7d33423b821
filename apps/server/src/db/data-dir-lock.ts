import { readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** The file a process holding an embedded database's folder writes into it (its pid). */
export const LOCK_FILE = 'fleet.pid';

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: the process exists but belongs to another user.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/** The pid of the live process holding dataDir, or null (no lock, or a stale one left by a crash). */
export function dataDirHolder(dataDir: string): number | null {
  let text: string;
  try {
    text = readFileSync(path.join(dataDir, LOCK_FILE), 'utf8');
  } catch {
    return null;
  }
  const pid = Number(text.trim());
  return Number.isInteger(pid) && pid > 0 && pid !== process.pid && alive(pid) ? pid : null;
}

export class DataDirInUseError extends Error {
  constructor(
    readonly dataDir: string,
    readonly pid: number,
  ) {
    super(`the embedded database ${dataDir} is in use by process ${pid}`);
  }
}

/**
 * Marks an embedded database's folder as held by this process. PGlite runs PostgreSQL inside the process,
 * so a second process opening the same folder (a second server, a backup) would corrupt it: both refuse.
 * Returns the release, which removes the mark.
 */
export function holdDataDir(dataDir: string): () => void {
  const holder = dataDirHolder(dataDir);
  if (holder !== null) throw new DataDirInUseError(dataDir, holder);
  const file = path.join(dataDir, LOCK_FILE);
  writeFileSync(file, `${process.pid}\n`);
  return () => {
    try {
      if (readFileSync(file, 'utf8').trim() === String(process.pid)) unlinkSync(file);
    } catch {
      // Already gone (the folder was removed): nothing to release.
    }
  };
}
