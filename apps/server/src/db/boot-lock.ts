import { sql } from 'kysely';
import type { Db } from './database.js';

/** pg_advisory_lock(class, key) of start-up; the class keeps it apart from the request-level locks (1, 2). */
const BOOT_LOCK = [16, 1] as const;

interface Log {
  info(obj: object, msg: string): void;
}

/**
 * Runs start-up work (migrations, the demo seed) holding a session advisory lock on one connection, so
 * instances started together on one database take turns: the first migrates and seeds, the others wait,
 * then find the schema current and the database no longer empty. The lock goes with the connection if
 * the process dies.
 */
export async function underBootLock<T>(db: Db, work: (db: Db) => Promise<T>, log?: Log): Promise<T> {
  return db.connection().execute(async (conn) => {
    const { rows } = await sql<{
      got: boolean;
    }>`SELECT pg_try_advisory_lock(${BOOT_LOCK[0]}, ${BOOT_LOCK[1]}) AS got`.execute(conn);
    if (!rows[0]?.got) {
      log?.info({}, 'another instance is migrating this database: waiting for it');
      await sql`SELECT pg_advisory_lock(${BOOT_LOCK[0]}, ${BOOT_LOCK[1]})`.execute(conn);
    }
    try {
      return await work(conn);
    } finally {
      await sql`SELECT pg_advisory_unlock(${BOOT_LOCK[0]}, ${BOOT_LOCK[1]})`.execute(conn);
    }
  });
}
