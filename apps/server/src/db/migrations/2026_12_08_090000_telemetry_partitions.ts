import { sql, type Kysely } from 'kysely';

/**
 * The seven telemetry logs become tables partitioned by day on recorded_at (UTC days, named
 * `<table>_pYYYYMMDD`), each with a DEFAULT partition `<table>_default` so no row is ever refused
 * (late device times, far-future clocks). Retention drops whole partitions instead of deleting
 * rows (docs/telemetry.md, telemetry/partitions.repository.ts).
 *
 * Indexes, per partition: the btree (car_data_id, recorded_at) that every per-terminal read uses,
 * and a BRIN on id (ids rise with insertion order, so a block range summary finds a paging cursor's
 * row for a few bytes per thousand rows) in place of the primary key on id: a unique key of a
 * partitioned table must contain recorded_at, and a btree on (id, recorded_at) would cost about
 * 25 bytes a row for nothing the identity sequence does not already guarantee.
 *
 * Existing rows are copied over with their ids: partitions are created for every UTC day that has
 * rows (from 2000 up to three days ahead) and the days around today; rows outside go to the
 * default partition. On an empty database (every test run) this costs a few empty tables.
 */
const columns: Record<string, string> = {
  gps_logs: `lat double precision NOT NULL, lng double precision NOT NULL, speed real, heading real,
    satellites smallint, accuracy real`,
  engine_logs: `running text, engine_line text, command smallint, command_id bigint, account_id text`,
  connection_logs: `state text NOT NULL`,
  battery_logs: `voltage real, percentage real`,
  sensor_logs: `vibration real, readings jsonb NOT NULL DEFAULT '{}'`,
  obd2_logs: `pids jsonb NOT NULL DEFAULT '{}'`,
  error_logs: `error_type text NOT NULL CHECK (error_type IN ('engine', 'gps', 'obd2', 'sensor')),
    status_code integer NOT NULL, detail text NOT NULL DEFAULT ''`,
};

const DAY_MS = 86_400_000;
const ymd = (day: number) => new Date(day).toISOString().slice(0, 10).replace(/-/g, '');
const iso = (day: number) => new Date(day).toISOString();

export async function up(db: Kysely<unknown>): Promise<void> {
  const run = (text: string) => sql.raw(text).execute(db);
  const today = Math.floor(Date.now() / DAY_MS) * DAY_MS;
  const lowest = Date.parse('2000-01-01T00:00:00Z');
  for (const [table, rest] of Object.entries(columns)) {
    const old = `${table}_unpartitioned`;
    await run(`ALTER TABLE ${table} RENAME TO ${old}`);
    await run(`ALTER INDEX ${table}_device_time_idx RENAME TO ${old}_device_time_idx`);
    await run(`ALTER SEQUENCE ${table}_id_seq RENAME TO ${old}_id_seq`);
    await run(`CREATE TABLE ${table} (
      id          bigint GENERATED ALWAYS AS IDENTITY,
      car_data_id text NOT NULL,
      recorded_at timestamptz NOT NULL,
      ${rest}
    ) PARTITION BY RANGE (recorded_at)`);
    await run(`CREATE INDEX ${table}_device_time_idx ON ${table} (car_data_id, recorded_at)`);
    await run(
      `CREATE INDEX ${table}_id_brin ON ${table} USING brin (id) WITH (pages_per_range = 16, autosummarize = on)`,
    );
    await run(`CREATE TABLE ${table}_default PARTITION OF ${table} DEFAULT`);
    const { rows } = await sql<{ day: number }>`
      SELECT DISTINCT (extract(epoch FROM date_trunc('day', recorded_at AT TIME ZONE 'UTC')) * 1000)::float8 AS day
      FROM ${sql.table(old)}`.execute(db);
    const days = new Set<number>();
    for (let d = today - DAY_MS; d <= today + 3 * DAY_MS; d += DAY_MS) days.add(d);
    for (const { day } of rows) if (day >= lowest && day <= today + 3 * DAY_MS) days.add(Number(day));
    for (const day of [...days].sort((a, b) => a - b))
      await run(
        `CREATE TABLE ${table}_p${ymd(day)} PARTITION OF ${table} FOR VALUES FROM ('${iso(day)}') TO ('${iso(day + DAY_MS)}')`,
      );
    await run(`INSERT INTO ${table} OVERRIDING SYSTEM VALUE SELECT * FROM ${old}`);
    await run(
      `SELECT setval(pg_get_serial_sequence('${table}', 'id'), max(id)) FROM ${old} HAVING max(id) IS NOT NULL`,
    );
    await run(`DROP TABLE ${old}`);
    await run(`ANALYZE ${table}`);
  }
}
