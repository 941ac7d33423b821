import { sql, type Kysely } from 'kysely';

/**
 * Every log but GPS gets its per-terminal index in the order its pages are read, (car_data_id, recorded_at,
 * id), in place of (car_data_id, log_minute(recorded_at)), so that partitioned pages are no slower than the flat
 * table's. By the minute, a page got its rows a minute at a time and PostgreSQL sorted each minute by time
 * and id, and the minute's conditions took planning time on every day partition a page opened, a cost that
 * grew with the days a page spans (bench/README.md, Measurements behind the code: Logs). In the index's order nothing is sorted, and
 * reads order and bound these logs by the time alone (telemetry/log-order.ts logOrder). A key a row costs more
 * index than the minute's shared key; these logs hold about a fifth of the GPS log's rows, which keeps the
 * minute's key: a GPS row's bytes are the fleet's storage, and a route reads its points in slices, not pages.
 *
 * The index keeps its name (`<table>_device_time_idx`, what the compaction job looks for) and is built on
 * every partition and on each one created later. Like any migration it runs before the server listens.
 */
const tables = ['engine_logs', 'connection_logs', 'battery_logs', 'sensor_logs', 'obd2_logs', 'error_logs'];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const table of tables) {
    await sql.raw(`DROP INDEX ${table}_device_time_idx`).execute(db);
    await sql.raw(`CREATE INDEX ${table}_device_time_idx ON ${table} (car_data_id, recorded_at, id)`).execute(db);
  }
}
