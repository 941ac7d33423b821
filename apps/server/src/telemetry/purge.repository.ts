import { sql } from 'kysely';
import type { Db } from '../db/database.js';
import { logTables, type LogTable } from './log.repository.js';

/**
 * Retention of the telemetry logs: deletes rows recorded before a time, one
 * terminal and one slice at a time, each slice its own short statement. A
 * DELETE only takes row locks (ingest and reads go on), and a slice found
 * through the (car_data_id, recorded_at) index touches just the rows it
 * removes, so no statement runs long and no table is scanned per slice.
 */
export interface PurgeResult {
  /** Rows removed per log table. */
  deleted: Record<LogTable, number>;
  /** The longest single statement, in ms: the longest any row lock was held. */
  longestStatementMs: number;
  statements: number;
}

/** Every terminal with rows in the table: a loose index scan, one index probe per terminal. */
async function terminalsIn(db: Db, table: LogTable): Promise<string[]> {
  const t = sql.table(table);
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

/** Deletes every log row recorded before `before`, `batchSize` rows per statement. */
export async function purgeTelemetryBefore(db: Db, before: Date, batchSize = 10_000): Promise<PurgeResult> {
  const deleted = Object.fromEntries(Object.values(logTables).map((t) => [t, 0])) as Record<LogTable, number>;
  let longestStatementMs = 0;
  let statements = 0;
  for (const table of Object.values(logTables)) {
    const t = sql.table(table);
    for (const imei of await terminalsIn(db, table)) {
      for (;;) {
        const started = performance.now();
        const result = await sql`DELETE FROM ${t} WHERE id IN (
          SELECT id FROM ${t} WHERE car_data_id = ${imei} AND recorded_at < ${before} ORDER BY recorded_at LIMIT ${batchSize})`.execute(
          db,
        );
        longestStatementMs = Math.max(longestStatementMs, performance.now() - started);
        statements++;
        const n = Number(result.numAffectedRows ?? 0);
        deleted[table] += n;
        if (n < batchSize) break;
      }
    }
  }
  return { deleted, longestStatementMs, statements };
}
