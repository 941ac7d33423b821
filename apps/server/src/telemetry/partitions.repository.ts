import { sql } from 'kysely';
import type { Db } from '../db/database.js';
import { DAY_MS, startOfUtcDay } from './log-order.js';
import { logTables, type LogTable } from './log.repository.js';

/**
 * The daily partitions of the telemetry logs (migration 2026_12_08_090000_telemetry_partitions):
 * `<table>_pYYYYMMDD` holds the UTC day [00:00, 24:00) of recorded_at, `<table>_default` every row
 * no day partition takes (late device times, far-future clocks). The jobs create days ahead and
 * retention drops whole days (purge.repository.ts).
 */
/** Days created ahead of today, so a clock change at midnight never sends a day's rows to the default. */
export const PARTITIONS_AHEAD_DAYS = 3;
/**
 * Partition changes take a lock on the log (ACCESS EXCLUSIVE on the parent to detach, on the default to
 * attach). They never wait longer than this for it: a waiting lock request would queue every insert and
 * read behind it. A change that cannot get its lock is retried (detach) or left to the next run (attach).
 */
export const PARTITION_LOCK_TIMEOUT_MS = 100;
/** Serialises partition changes of every instance sharing the database. */
const lockKey = sql`pg_advisory_xact_lock(hashtext('fleet:telemetry-partitions'))`;

export interface LogPartition {
  table: LogTable;
  name: string;
  /** The day's bounds; both null for the default partition. */
  from: Date | null;
  to: Date | null;
}

export const partitionName = (table: LogTable, day: Date) =>
  `${table}_p${day.toISOString().slice(0, 10).replace(/-/g, '')}`;

/** The partitions of one log, days in time order, then the default. */
export async function listLogPartitions(db: Db, table: LogTable): Promise<LogPartition[]> {
  const { rows } = await sql<{ name: string }>`
    SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
    WHERE i.inhparent = to_regclass(${table}) ORDER BY c.relname`.execute(db);
  const days: LogPartition[] = [];
  const other: LogPartition[] = [];
  for (const { name } of rows) {
    const m = /_p(\d{4})(\d{2})(\d{2})$/.exec(name);
    if (!m || !name.startsWith(table)) {
      other.push({ table, name, from: null, to: null });
      continue;
    }
    const from = new Date(`${m[1]}-${m[2]}-${m[3]}T00:00:00Z`);
    days.push({ table, name, from, to: new Date(from.getTime() + DAY_MS) });
  }
  return [...days, ...other];
}

/**
 * Creates the partition of one UTC day unless it exists. Rows of that day that went to the default
 * partition meanwhile move into it, in the same transaction, so the day's rows are never split.
 * Returns whether it created the partition.
 */
export async function createLogPartition(db: Db, table: LogTable, day: Date): Promise<boolean> {
  const from = startOfUtcDay(day);
  const to = new Date(from.getTime() + DAY_MS);
  const name = partitionName(table, from);
  return db.transaction().execute(async (tx) => {
    await sql`SELECT ${lockKey}`.execute(tx);
    const exists = await sql<{ oid: unknown }>`SELECT to_regclass(${name}) AS oid`.execute(tx);
    if (exists.rows[0]?.oid) return false;
    await sql.raw(`SET LOCAL lock_timeout = '${PARTITION_LOCK_TIMEOUT_MS}ms'`).execute(tx);
    const [t, p, d] = [sql.table(table), sql.table(name), sql.table(`${table}_default`)];
    await sql`CREATE TABLE ${p} (LIKE ${t} INCLUDING DEFAULTS INCLUDING CONSTRAINTS)`.execute(tx);
    await sql`WITH moved AS (DELETE FROM ${d} WHERE recorded_at >= ${from} AND recorded_at < ${to} RETURNING *)
      INSERT INTO ${p} SELECT * FROM moved`.execute(tx);
    await sql`ALTER TABLE ${t} ATTACH PARTITION ${p} FOR VALUES FROM (${sql.lit(from.toISOString())}) TO (${sql.lit(to.toISOString())})`.execute(
      tx,
    );
    return true;
  });
}

/** Makes sure every log has its partitions from today (UTC) to `ahead` days on; returns those created. */
export async function ensureLogPartitions(db: Db, now: Date, ahead = PARTITIONS_AHEAD_DAYS): Promise<string[]> {
  const created: string[] = [];
  const today = startOfUtcDay(now).getTime();
  for (const table of Object.values(logTables)) {
    const existing = new Set((await listLogPartitions(db, table)).map((p) => p.name));
    for (let i = 0; i <= ahead; i++) {
      const day = new Date(today + i * DAY_MS);
      if (existing.has(partitionName(table, day))) continue;
      if (await createLogPartition(db, table, day)) created.push(partitionName(table, day));
    }
  }
  return created;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Detaches one partition (a catalogue change: the parent's lock is held for milliseconds, and waited
 * for at most PARTITION_LOCK_TIMEOUT_MS, retried a few times) and then drops it as a table of its own,
 * which no longer locks the log. Returns whether this call dropped it.
 */
export async function dropLogPartition(db: Db, table: LogTable, name: string): Promise<boolean> {
  for (let attempt = 1; ; attempt++) {
    try {
      const detached = await db.transaction().execute(async (tx) => {
        await sql`SELECT ${lockKey}`.execute(tx);
        const attached = await sql<{ n: number }>`
          SELECT count(*)::int AS n FROM pg_inherits WHERE inhrelid = to_regclass(${name}) AND inhparent = to_regclass(${table})`.execute(
          tx,
        );
        if (!attached.rows[0]?.n) return false;
        await sql.raw(`SET LOCAL lock_timeout = '${PARTITION_LOCK_TIMEOUT_MS}ms'`).execute(tx);
        await sql`ALTER TABLE ${sql.table(table)} DETACH PARTITION ${sql.table(name)}`.execute(tx);
        return true;
      });
      if (detached) await sql`DROP TABLE IF EXISTS ${sql.table(name)}`.execute(db);
      return detached;
    } catch (err) {
      // 55P03 lock_not_available: someone held the log longer than the timeout; try again shortly.
      if ((err as { code?: string }).code !== '55P03' || attempt >= 5) throw err;
      await pause(200 * attempt);
    }
  }
}

/** A day is compacted this long after it ended, when late deliveries have mostly come in. */
export const COMPACT_AFTER_MS = 3600_000;

/**
 * Rebuilds the per-terminal index (`<log>_device_time_idx`, log-order.ts) of every day partition that ended
 * at least COMPACT_AFTER_MS ago, once, packed full (fillfactor 100). While a day is written, terminals
 * append to their own places of that index, and page splits leave its pages about half full (23 bytes a
 * GPS row); rebuilt, the same index costs about 11. The fillfactor left on the index marks it as done.
 * `concurrently` (PostgreSQL): REINDEX CONCURRENTLY, which lets ingest and reads go on; PGlite has one
 * connection and rebuilds in place. Returns the indexes rebuilt.
 */
export async function compactLogPartitions(db: Db, now: Date, concurrently: boolean): Promise<string[]> {
  const done: string[] = [];
  for (const table of Object.values(logTables)) {
    const { rows } = await sql<{ index: string; partition: string; options: string[] | null }>`
      SELECT ic.relname AS index, tc.relname AS partition, ic.reloptions AS options
      FROM pg_inherits i
      JOIN pg_class ic ON ic.oid = i.inhrelid
      JOIN pg_index x ON x.indexrelid = ic.oid
      JOIN pg_class tc ON tc.oid = x.indrelid
      WHERE i.inhparent = to_regclass(${`${table}_device_time_idx`})`.execute(db);
    const days = new Map((await listLogPartitions(db, table)).map((p) => [p.name, p]));
    for (const r of rows) {
      const to = days.get(r.partition)?.to;
      if (!to || to.getTime() > now.getTime() - COMPACT_AFTER_MS) continue;
      if ((r.options ?? []).includes('fillfactor=100')) continue;
      const index = sql.table(r.index);
      await sql`ALTER INDEX ${index} SET (fillfactor = 100)`.execute(db);
      await sql`REINDEX INDEX ${sql.raw(concurrently ? 'CONCURRENTLY ' : '')}${index}`.execute(db);
      done.push(r.index);
    }
  }
  return done;
}
