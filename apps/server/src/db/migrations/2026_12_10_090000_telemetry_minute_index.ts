import { sql, type Kysely } from 'kysely';

/**
 * Every log's per-terminal index becomes (car_data_id, log_minute(recorded_at)) in place of
 * (car_data_id, recorded_at), to keep the bytes a GPS row costs within the storage target. Its key repeats
 * for every record a terminal sends within one minute, so btree deduplication keeps one key and a list of row
 * pointers for them: a fraction of the index a key per row costs, which brings a GPS row with its indexes
 * under the target (bench/README.md, Measurements behind the code: Logs). Reads keep their order and their ranges through it (telemetry/log-order.ts): they
 * order by the minute (the index's order) and then by recorded_at and id, which PostgreSQL does as an
 * incremental sort of each minute's rows, and bound a range by its minutes as well as its times.
 *
 * The index keeps its name (`<table>_device_time_idx`, what the compaction job looks for) and, being
 * declared on the partitioned table, is built on every partition and on each one created later. Like
 * any migration it runs before the server listens (server.ts): on a database with months of logs the
 * build takes minutes, during which terminals are not answered and retry (their batches are kept).
 */
const tables = ['gps_logs', 'engine_logs', 'connection_logs', 'battery_logs', 'sensor_logs', 'obd2_logs', 'error_logs'];

export async function up(db: Kysely<unknown>): Promise<void> {
  // Minutes since 1970 (UTC). Built of immutable parts only (an interval's epoch, not a timestamptz's,
  // which PostgreSQL marks stable), so PostgreSQL inlines it into each query and into the index: a SQL
  // function called per row cost a 1,000-row page four times its read.
  await sql`CREATE FUNCTION log_minute(at timestamptz) RETURNS integer
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    AS $$ SELECT floor(date_part('epoch', at - to_timestamp(0)) / 60)::integer $$`.execute(db);
  for (const table of tables) {
    await sql.raw(`DROP INDEX ${table}_device_time_idx`).execute(db);
    await sql
      .raw(`CREATE INDEX ${table}_device_time_idx ON ${table} (car_data_id, log_minute(recorded_at))`)
      .execute(db);
  }
}
