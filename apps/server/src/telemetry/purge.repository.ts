import { sql } from 'kysely';
import type { Db } from '../db/database.js';
import { logTables, type LogTable } from './log.repository.js';
import { DAY_MS, logOrder, startOfUtcDay } from './log-order.js';
import { dropLogPartition, listLogPartitions } from './partitions.repository.js';

/**
 * Retention of the telemetry logs. A day partition wholly before the time is detached and dropped
 * (a catalogue change and a file removal, whatever its size: no row is deleted one by one). What
 * remains before the time, in the default partition (late and odd device times) and in a day the
 * time falls inside, is deleted one terminal and one slice at a time, each slice its own short
 * statement found through that partition's (car_data_id, minute) index, in its order (log-order.ts).
 */
export interface PurgeResult {
  /** Rows removed by DELETE statements per log table (rows of dropped partitions are not counted). */
  deleted: Record<LogTable, number>;
  /** Day partitions dropped whole. */
  droppedPartitions: string[];
  /** The longest single statement, in ms: the longest any row lock was held. */
  longestStatementMs: number;
  statements: number;
}

/** Every terminal with rows in one partition: a loose index scan, one index probe per terminal. */
async function terminalsIn(db: Db, partition: string): Promise<string[]> {
  const t = sql.table(partition);
  const { rows } = await sql<{ car_data_id: string }>`
    WITH RECURSIVE ids AS (
      (SELECT car_data_id FROM ${t} ORDER BY car_data_id LIMIT 1)
      UNION ALL
      SELECT (SELECT l.car_data_id FROM ${t} l WHERE l.car_data_id > ids.car_data_id ORDER BY l.car_data_id LIMIT 1)
      FROM ids WHERE ids.car_data_id IS NOT NULL
    )
    SELECT car_data_id FROM ids WHERE car_data_id IS NOT NULL`.execute(db);
  return rows.map((r) => r.car_data_id);
}

/** Removes every log row recorded before `before`: whole days dropped, the rest `batchSize` rows per statement. */
export async function purgeTelemetryBefore(db: Db, before: Date, batchSize = 10_000): Promise<PurgeResult> {
  const deleted = Object.fromEntries(Object.values(logTables).map((t) => [t, 0])) as Record<LogTable, number>;
  const droppedPartitions: string[] = [];
  let longestStatementMs = 0;
  let statements = 0;
  for (const table of Object.values(logTables)) {
    for (const p of await listLogPartitions(db, table)) {
      if (p.to && p.to <= before) {
        if (await dropLogPartition(db, table, p.name)) droppedPartitions.push(p.name);
        continue;
      }
      if (p.from && p.from >= before) continue;
      const t = sql.table(p.name);
      const order = logOrder(table);
      for (const imei of await terminalsIn(db, p.name)) {
        for (;;) {
          const started = performance.now();
          const result = await sql`DELETE FROM ${t} WHERE ctid = ANY(ARRAY(
            SELECT ctid FROM ${t} WHERE car_data_id = ${imei} AND ${order.timeBound('<', sql`${before}`)}
              ORDER BY ${order.indexOrder} LIMIT ${batchSize}))`.execute(db);
          longestStatementMs = Math.max(longestStatementMs, performance.now() - started);
          statements++;
          const n = Number(result.numAffectedRows ?? 0);
          deleted[table] += n;
          if (n < batchSize) break;
        }
      }
    }
  }
  return { deleted, droppedPartitions, longestStatementMs, statements };
}

/**
 * TELEMETRY_RETENTION_DAYS: keeps every row recorded since the start of the UTC day `days` days
 * before now (so at least `days` whole days), drops older day partitions and deletes the default
 * partition's older rows. 0 keeps everything.
 */
export async function applyTelemetryRetention(db: Db, now: Date, days: number): Promise<PurgeResult | null> {
  if (days <= 0) return null;
  return purgeTelemetryBefore(db, new Date(startOfUtcDay(now).getTime() - days * DAY_MS));
}
