import { carGetBatteryLog, carGetGpsLog } from '@fleet/contract';
import { createLogPartition } from '@fleet/server/partitions';
import { purgeTelemetryBefore } from '@fleet/server/purge';
import type { BenchDb } from './db.js';
import type { Fleet } from './generate.js';
import { deepBatteryPage } from './logs.js';
import type { Report } from './report.js';
import { call, type BenchServer } from './server.js';
import { int, ms, samplePair } from './stats.js';

/**
 * Partitioned logs (issue #19) against the layout before them, in the same database and run: two
 * copies of the generated log, one partitioned and indexed as the migrations make it (btree
 * (car_data_id, log_minute(recorded_at)), BRIN on id), one with the old layout (one table, primary key on
 * id, btree (car_data_id, recorded_at)), filled alike; each read with its own SQL (previousSql). Figures: bytes per GPS row
 * of each, the SQL of the route and log calls replayed on each, and retention: a day partition of N
 * rows dropped while a writer and a reader keep going (their longest statement), beside the old
 * purge (DELETE in 10,000-row slices per terminal) of the same rows from a flat table.
 */
const DAY = '2019-12-31T00:00:00Z';
const NEXT = '2020-01-01T00:00:00Z';

async function sizeOf(bdb: BenchDb, table: string, partitioned: boolean) {
  const leaves = partitioned
    ? `SELECT relid FROM pg_partition_tree('${table}') WHERE isleaf`
    : `SELECT '${table}'::regclass AS relid`;
  const [s] = await bdb.raw<{ total: number; heap: number; n: number }>(
    `SELECT sum(pg_total_relation_size(relid))::float8 AS total, sum(pg_relation_size(relid))::float8 AS heap,
            (SELECT count(*)::float8 FROM ${table}) AS n
     FROM (${leaves}) AS leaves`,
  );
  return s!;
}

/**
 * Two copies of a log, filled alike (in id order, indexes in place as ingest leaves them): `<log>_cmp`
 * partitioned by day as the migration makes it, `<log>_flat` the layout before it.
 */
async function copies(bdb: BenchDb, table: string) {
  for (const suffix of ['_cmp', '_flat']) await bdb.raw(`DROP TABLE IF EXISTS ${table}${suffix}`);
  await bdb.raw(`CREATE TABLE ${table}_cmp (LIKE ${table} INCLUDING DEFAULTS) PARTITION BY RANGE (recorded_at)`);
  // The per-terminal index as the migrations left it on the log (the minute alone on GPS, the page's whole order on the others).
  const [own] = await bdb.raw<{ def: string }>(`SELECT pg_get_indexdef('${table}_device_time_idx'::regclass) AS def`);
  const keys = / USING btree (\(.*\))$/.exec(own!.def)?.[1];
  if (!keys) throw new Error(`unexpected index on ${table}: ${own!.def}`);
  await bdb.raw(`CREATE INDEX ON ${table}_cmp ${keys}`);
  await bdb.raw(`CREATE INDEX ON ${table}_cmp USING brin (id) WITH (pages_per_range = 16, autosummarize = on)`);
  await bdb.raw(`CREATE TABLE ${table}_cmp_default PARTITION OF ${table}_cmp DEFAULT`);
  const days = await bdb.raw<{ day: string }>(
    `SELECT DISTINCT to_char(date_trunc('day', recorded_at AT TIME ZONE 'UTC'), 'YYYY-MM-DD') AS day FROM ${table}`,
  );
  for (const { day } of days)
    await bdb.raw(
      `CREATE TABLE ${table}_cmp_p${day.replace(/-/g, '')} PARTITION OF ${table}_cmp
       FOR VALUES FROM ('${day}T00:00:00Z') TO ('${day}T00:00:00Z'::timestamptz + interval '1 day')`,
    );
  await bdb.raw(`CREATE TABLE ${table}_flat (LIKE ${table} INCLUDING DEFAULTS)`);
  await bdb.raw(`ALTER TABLE ${table}_flat ADD PRIMARY KEY (id)`);
  await bdb.raw(`CREATE INDEX ON ${table}_flat (car_data_id, recorded_at)`);
  for (const suffix of ['_cmp', '_flat']) {
    await bdb.raw(`INSERT INTO ${table}${suffix} SELECT * FROM ${table} ORDER BY id`);
    await bdb.raw(`VACUUM ANALYZE ${table}${suffix}`);
  }
}

/**
 * A statement of the app as it was before the (car_data_id, minute) index (telemetry/log-order.ts):
 * the same read ordered and bounded by recorded_at alone, what the flat layout's btree serves.
 */
export function previousSql(text: string): string {
  // A log page selected its columns as the table has them (log.repository.ts pageColumns orders them for the
  // minute's sort). A bound's minute condition becomes a no-op on its own parameters, which must stay typed. A page beyond a
  // cursor bounds the partitions by the cursor's day and the index by its minute (log-order.ts cursorDays); the
  // flat table's index is on the time, bounded by the cursor's instant as before the partitions.
  return text
    .replace(/^select "recorded_at", "id", (?:"\w+", )*"car_data_id" from /, 'select * from ')
    .replace(
      /\) AND recorded_at (?:<|>=) (\$\d+::timestamptz) AND log_minute\(recorded_at\) ([<>]=) log_minute\((\$\d+::timestamptz)\)/g,
      ') AND recorded_at $2 $3 AND $1 IS NOT NULL',
    )
    .replace(
      /\(log_minute\(recorded_at\), recorded_at, id\) ([<>]) \(SELECT log_minute\(c\.recorded_at\), /g,
      '(recorded_at, id) $1 (SELECT ',
    )
    .replace(/log_minute\(recorded_at\)( DESC)?, /g, '')
    .replace(/log_minute\(recorded_at\) [<>]= log_minute\(((?:[^()]|\([^()]*\))*)\)/g, '$1 IS NOT NULL');
}

/** Statements' rows with each row's columns in name order: the two layouts' statements select them in orders of their own. */
const inKeyOrder = (results: unknown[]) =>
  (results as Record<string, unknown>[][]).map((rows) =>
    rows.map((r) => Object.fromEntries(Object.entries(r).sort(([a], [b]) => (a < b ? -1 : 1)))),
  );

/** What the job does to a finished day (compactLogPartitions): its btree rebuilt packed; returns the days done. */
async function compactCopy(bdb: BenchDb, table: string, now: Date) {
  const rows = await bdb.raw<{ index: string; partition: string }>(
    `SELECT ic.relname AS index, tc.relname AS partition FROM pg_index x
     JOIN pg_class ic ON ic.oid = x.indexrelid JOIN pg_class tc ON tc.oid = x.indrelid
     JOIN pg_inherits i ON i.inhrelid = tc.oid
     WHERE i.inhparent = '${table}_cmp'::regclass AND ic.relam = (SELECT oid FROM pg_am WHERE amname = 'btree')`,
  );
  let days = 0;
  for (const r of rows) {
    const m = /_p(\d{4})(\d{2})(\d{2})$/.exec(r.partition);
    if (!m || Date.parse(`${m[1]}-${m[2]}-${m[3]}T00:00:00Z`) + 86_400_000 + 3600_000 > now.getTime()) continue;
    await bdb.raw(`ALTER INDEX ${r.index} SET (fillfactor = 100)`);
    await bdb.raw(`REINDEX INDEX ${r.index}`);
    days++;
  }
  return days;
}

export async function benchPartitions(bdb: BenchDb, server: BenchServer, fleet: Fleet, report: Report) {
  const section = 'partitions';
  // Storage: the partitioned GPS log against its flat copy.
  await copies(bdb, 'gps_logs');
  await copies(bdb, 'battery_logs');
  const written = await sizeOf(bdb, 'gps_logs_cmp', true);
  const flat = await sizeOf(bdb, 'gps_logs_flat', false);
  const perRow = (s: { total: number; heap: number; n: number }) =>
    `${(s.total / s.n).toFixed(0)} B (heap ${(s.heap / s.n).toFixed(0)} + indexes ${((s.total - s.heap) / s.n).toFixed(0)})`;
  report.add({
    section,
    name: `bytes per GPS row with indexes, ${int(written.n)} rows: partitioned (btree (car_data_id, minute) + BRIN on id) as ingest writes it`,
    value: perRow(written),
    anchor: `flat, primary key on id: ${perRow(flat)}`,
    ratio: `${(written.total / flat.total).toFixed(2)}×`,
  });
  const compacted = await compactCopy(bdb, 'gps_logs', new Date());
  await compactCopy(bdb, 'battery_logs', new Date());
  const part = await sizeOf(bdb, 'gps_logs_cmp', true);
  report.add({
    section,
    name: `the same after the job packed the finished days' btrees (${compacted} of the partitions)`,
    value: perRow(part),
    anchor: `flat: ${perRow(flat)}`,
    ratio: `${(part.total / flat.total).toFixed(2)}×`,
    target: '≤ 110 B per row',
    met: part.total / part.n <= 110,
  });

  // Reads: the SQL the app issues for the route and the battery log, on the partitioned log and on the flat copy.
  const id = fleet.busy.car_data_id;
  const [last] = await bdb.raw<{ t: Date }>('SELECT max(recorded_at) AS t FROM gps_logs WHERE car_data_id = $1', [id]);
  const to = new Date(new Date(last!.t).getTime() + 1000).toISOString();
  const from = new Date(new Date(last!.t).getTime() - 86_400_000).toISOString();
  const deep = await deepBatteryPage(bdb, id);
  const cases = [
    ['car_get_gps_log, one day of 1-second points', carGetGpsLog.path, { car_data_id: id, from, to, max_points: 5000 }],
    ['car_get_battery_log, first page', carGetBatteryLog.path, { car_data_id: id, limit: 1000 }],
    [`car_get_battery_log, page at row ${int(deep.depth)} (before_id, before_at)`, carGetBatteryLog.path, deep.body],
  ] as const;
  for (const [label, path, body] of cases) {
    server.capture.start();
    await call(server, path, body);
    const queries = server.capture.stop().filter((q) => /(gps|battery)_logs/.test(q.sql));
    const replay = (suffix: string) => async () => {
      const out: unknown[] = [];
      for (const q of queries) {
        const text = q.sql.replace(/\b(gps|battery)_logs\b/g, `$1_logs${suffix}`);
        out.push(await bdb.raw(suffix === '_flat' ? previousSql(text) : text, q.parameters));
      }
      return out;
    };
    // Both layouts must answer the same rows, in the same order.
    const same =
      JSON.stringify(inKeyOrder(await replay('_cmp')())) === JSON.stringify(inKeyOrder(await replay('_flat')()));
    // In turns: this machine's speed moves by a third within a minute (26-27 November runs).
    const { a, b, ratio } = await samplePair(replay('_cmp'), replay('_flat'), {
      runs: 30,
      warmup: 2,
      budgetMs: 12_000,
    });
    report.add({
      section,
      name: `${label}: its ${queries.length} statement(s), partitioned (${same ? 'the same rows as flat' : 'ROWS DIFFER from flat'})`,
      value: `p50 ${ms(a.p50)} / p95 ${ms(a.p95)} ms`,
      anchor: `flat p50 ${ms(b.p50)} / p95 ${ms(b.p95)} ms`,
      ratio: `${ratio.toFixed(2)}× (median of ${a.n} turns' ratios)`,
      target: 'no slower than flat (±10 %)',
      met: ratio <= 1.1,
    });
  }
  for (const t of ['gps_logs_cmp', 'gps_logs_flat', 'battery_logs_cmp', 'battery_logs_flat'])
    await bdb.raw(`DROP TABLE ${t}`);

  // Retention: one day of N rows from 1,000 terminals.
  const n = fleet.size.vehicles >= 100_000 ? 2_000_000 : 500_000;
  await createLogPartition(bdb.db, 'gps_logs', new Date(DAY));
  const fill = (table: string) =>
    bdb.raw(
      `INSERT INTO ${table} (car_data_id, recorded_at, lat, lng, speed, heading, satellites, accuracy)
       SELECT 'purge-' || (g % 1000), $1::timestamptz + (g * (86400.0 / $2)) * interval '1 second',
              35.6 + (g % 1000) / 10000.0, 139.7, 30, 90, 9, 5
       FROM generate_series(0, $2 - 1) g`,
      [DAY, n],
    );
  await fill('gps_logs');
  await bdb.raw('ANALYZE gps_logs');
  // The old way on the same rows: a flat table, DELETE 10,000 rows a statement per terminal.
  await bdb.raw(`CREATE TABLE gps_logs_flat (LIKE gps_logs INCLUDING DEFAULTS)`);
  await bdb.raw(`ALTER TABLE gps_logs_flat ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY, ADD PRIMARY KEY (id)`);
  await bdb.raw(`CREATE INDEX ON gps_logs_flat (car_data_id, recorded_at)`);
  await fill('gps_logs_flat');
  await bdb.raw('VACUUM ANALYZE gps_logs_flat');

  const concurrent = bdb.kind === 'postgres';
  const watch = () => {
    let stop = false;
    const longest = { write: 0, read: 0, writes: 0, reads: 0 };
    const loop = async (kind: 'write' | 'read') => {
      while (!stop) {
        const t0 = performance.now();
        if (kind === 'write')
          await bdb.raw(`INSERT INTO gps_logs (car_data_id, recorded_at, lat, lng) VALUES ($1, now(), 35.6, 139.7)`, [
            'purge-writer',
          ]);
        else
          await bdb.raw(
            'SELECT id FROM gps_logs WHERE car_data_id = $1 ORDER BY log_minute(recorded_at) DESC, recorded_at DESC, id DESC LIMIT 100',
            [id],
          );
        longest[kind] = Math.max(longest[kind], performance.now() - t0);
        longest[kind === 'write' ? 'writes' : 'reads']++;
        await new Promise((r) => setTimeout(r, 2));
      }
    };
    const running = concurrent ? Promise.all([loop('write'), loop('read')]) : Promise.resolve([]);
    return async () => {
      stop = true;
      await running;
      return longest;
    };
  };
  // The writer's and reader's longest statement with nothing else running, for scale.
  const idle = watch();
  await new Promise((r) => setTimeout(r, 2000));
  const calm = await idle();

  const during = watch();
  const t0 = performance.now();
  const result = await purgeTelemetryBefore(bdb.db, new Date(NEXT));
  const dropMs = performance.now() - t0;
  const seen = await during();
  report.add({
    section,
    name: `retention: drop the day partition of ${int(n)} GPS rows (purgeTelemetryBefore, ${result.droppedPartitions.length} partition(s) of all logs)`,
    value: `${ms(dropMs)} ms in all`,
    anchor: concurrent
      ? `longest statement of a concurrent writer / reader meanwhile: ${ms(seen.write)} / ${ms(seen.read)} ms (${seen.writes} / ${seen.reads} statements; ${ms(calm.write)} / ${ms(calm.read)} ms when idle)`
      : 'PGlite: one connection, no concurrent statements',
    target: '≤ 1 s, no lock held over 100 ms',
    met: dropMs <= 1000 && (!concurrent || Math.max(seen.write, seen.read) <= 100 + Math.max(calm.write, calm.read)),
  });
  const oldStarted = performance.now();
  let statements = 0;
  let longestStatement = 0;
  const terminals = await bdb.raw<{ car_data_id: string }>('SELECT DISTINCT car_data_id FROM gps_logs_flat');
  for (const { car_data_id } of terminals) {
    for (;;) {
      const s0 = performance.now();
      const rows = await bdb.raw<{ id: number }>(
        `DELETE FROM gps_logs_flat WHERE id IN (SELECT id FROM gps_logs_flat WHERE car_data_id = $1 AND recorded_at < $2 ORDER BY recorded_at LIMIT 10000) RETURNING id`,
        [car_data_id, NEXT],
      );
      longestStatement = Math.max(longestStatement, performance.now() - s0);
      statements++;
      if (rows.length < 10_000) break;
    }
  }
  const oldMs = performance.now() - oldStarted;
  report.add({
    section,
    name: `before: the same ${int(n)} rows deleted from a flat table, 10,000 a statement per terminal`,
    value: `${(oldMs / 1000).toFixed(1)} s, ${statements} statements, longest ${ms(longestStatement)} ms`,
    anchor: `drop: ${ms(dropMs)} ms`,
    ratio: `${(oldMs / dropMs).toFixed(0)}× faster`,
  });
  await bdb.raw('DROP TABLE gps_logs_flat');
  await bdb.raw(`DELETE FROM gps_logs WHERE car_data_id = 'purge-writer'`);
}
