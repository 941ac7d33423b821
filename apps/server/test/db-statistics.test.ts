import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { analyzeChangedTables, vacuumDeadTables } from '../src/db/statistics.js';
import { serverJobs } from '../src/jobs/jobs.js';
import { createTestApp, type TestApp } from './helper.js';

const embedded = !inject('databaseUrl');
const JOB = 'vacuum and table statistics (embedded database)';
const silent = { info: () => undefined, warn: () => undefined, error: () => undefined, debug: () => undefined };
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

/** The activity counters are written out at most once a second: now, for the next statement to read them. */
const flushCounters = () => sql`SELECT pg_stat_force_next_flush()`.execute(t.db);

/** The planner's idea of a table's rows: what its last analyse (or none, -1) found. */
const plannedRows = async (table: string) =>
  Number(
    (await sql<{ n: number }>`SELECT reltuples AS n FROM pg_class WHERE oid = to_regclass(${table})`.execute(t.db))
      .rows[0]!.n,
  );

/** Rows a table's counters hold dead: deleted, or old versions of updated ones, that no vacuum has taken away. */
const deadRows = async (table: string) =>
  Number(
    (
      await sql<{
        n: number;
      }>`SELECT n_dead_tup AS n FROM pg_stat_user_tables WHERE relid = to_regclass(${table})`.execute(t.db)
    ).rows[0]!.n,
  );

describe('vacuum and table statistics (no autovacuum on the embedded database)', () => {
  it.runIf(embedded)('analyses a log partition whose rows changed, and not again until they change', async () => {
    await sql`INSERT INTO gps_logs (car_data_id, recorded_at, lat, lng, speed, heading)
      SELECT '359999999999991', timestamptz '2020-01-01T00:00:00Z' + make_interval(secs => i * 5), 35.6, 139.7, 30, 90
      FROM generate_series(1, 20000) AS i`.execute(t.db);
    // Analysed empty by the partitioning migration: planned as nothing at all.
    expect(await plannedRows('gps_logs_default')).toBeLessThanOrEqual(0);

    await flushCounters();
    expect(await analyzeChangedTables(t.db)).toContain('gps_logs_default');
    expect(await plannedRows('gps_logs_default')).toBe(20000);
    expect(await analyzeChangedTables(t.db)).not.toContain('gps_logs_default');

    // Fewer changes than autovacuum's threshold (50 + 10 % of the rows) wait for more.
    await sql`DELETE FROM gps_logs WHERE car_data_id = '359999999999991' AND recorded_at < '2020-01-01T00:05:00Z'`.execute(
      t.db,
    );
    await flushCounters();
    expect(await analyzeChangedTables(t.db)).not.toContain('gps_logs_default');
  });

  it.runIf(embedded)('vacuums a table whose dead rows pass the threshold, and not again until more die', async () => {
    await sql`INSERT INTO login_attempts (ip, username, succeeded, at)
      SELECT '192.0.2.' || (i % 250), 'vacuum-' || i, false, now() - make_interval(days => 30)
      FROM generate_series(1, 5000) AS i`.execute(t.db);
    await sql`DELETE FROM login_attempts WHERE username LIKE 'vacuum-%' AND right(username, 1) IN ('0', '1', '2', '3')`.execute(
      t.db,
    );
    await flushCounters();
    // 2,000 dead rows against 3,000 live: past autovacuum's threshold (50 + 20 % of the rows).
    expect(await deadRows('login_attempts')).toBe(2000);
    expect(await vacuumDeadTables(t.db)).toContain('login_attempts');
    await flushCounters();
    expect(await deadRows('login_attempts')).toBe(0);
    expect(await vacuumDeadTables(t.db)).not.toContain('login_attempts');

    // Fewer dead rows than the threshold wait for more.
    await sql`DELETE FROM login_attempts WHERE username IN ('vacuum-5', 'vacuum-15', 'vacuum-25')`.execute(t.db);
    await flushCounters();
    expect(await vacuumDeadTables(t.db)).not.toContain('login_attempts');
  });

  it('runs among the server jobs on the embedded database, not on PostgreSQL (autovacuum does it there)', async () => {
    const names = async (env: Record<string, string>) => {
      const { jobs, close } = serverJobs({ db: t.db, config: loadConfig({ NODE_ENV: 'test', ...env }), log: silent });
      await close();
      return jobs.map((j) => j.name);
    };
    expect(await names({})).toContain(JOB);
    expect(await names({ DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/test' })).not.toContain(JOB);
  });
});
