import { carGetBatteryLog, carGetGpsLog } from '@fleet/contract';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import {
  CompiledQuery,
  Kysely,
  Migrator,
  PostgresDialect,
  PostgresQueryCompiler,
  sql,
  type KyselyPlugin,
} from 'kysely';
import { PGliteDialect } from 'kysely-pglite-dialect';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { withPlugin, type Db } from '../src/db/database.js';
import { findLogPage, logTables, ShortWindows } from '../src/telemetry/log.repository.js';
import { migrations } from '../src/db/migrations/index.js';
import { serverJobs } from '../src/jobs/jobs.js';
import { DAY_MS, startOfUtcDay } from '../src/telemetry/log-order.js';
import {
  compactLogPartitions,
  createLogPartition,
  ensureLogPartitions,
  PARTITIONS_AHEAD_DAYS,
} from '../src/telemetry/partitions.repository.js';
import { applyTelemetryRetention } from '../src/telemetry/purge.repository.js';
import { adminQuery, dropDatabase, ident, uniqueDatabaseName, urlForDatabase } from './databases.js';
import { callAs, createTestApp, login, seedFixtures, type TestApp } from './helper.js';
import { terminalA, terminalB } from './telemetry-support.js';

const MIGRATION = '2026_12_08_090000_telemetry_partitions';
const names = Object.keys(migrations);
const previous = names[names.indexOf(MIGRATION) - 1]!;

/** Which partition holds each row of a log, oldest first. */
async function placement(db: Db, table: string, imei: string) {
  const { rows } = await sql<{ part: string; recorded_at: Date }>`
    SELECT tableoid::regclass::text AS part, recorded_at FROM ${sql.table(table)}
    WHERE car_data_id = ${imei} ORDER BY recorded_at, id`.execute(db);
  return rows.map((r) => [r.part, new Date(r.recorded_at).toISOString()]);
}

async function partitionsOf(db: Db, table: string): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`
    SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
    WHERE i.inhparent = to_regclass(${table}) ORDER BY 1`.execute(db);
  return rows.map((r) => r.name);
}

/** A database of its own, not migrated: PGlite in memory, or a new PostgreSQL database. */
async function blankDatabase(): Promise<{ db: Kysely<unknown>; close(): Promise<void> }> {
  const url = inject('databaseUrl');
  if (!url) {
    const pglite = await PGlite.create({ extensions: { pg_trgm } });
    const db = new Kysely<unknown>({ dialect: new PGliteDialect(pglite) });
    return { db, close: () => db.destroy() };
  }
  const name = uniqueDatabaseName('fc_part');
  await adminQuery(url, `CREATE DATABASE ${ident(name)}`);
  const db = new Kysely<unknown>({
    dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: urlForDatabase(url, name), max: 2 }) }),
  });
  return {
    db,
    close: async () => {
      await db.destroy();
      await dropDatabase(url, name);
    },
  };
}

describe('migration telemetry_partitions', () => {
  // A fresh database runs every migration (PGlite: tens of seconds on a loaded machine).
  it(
    'moves the rows of the unpartitioned logs into day partitions and the default, readable through the API',
    { timeout: 300_000 },
    async () => {
      const blank = await blankDatabase();
      try {
        const migrator = new Migrator({ db: blank.db, provider: { getMigrations: async () => migrations } });
        expect((await migrator.migrateTo(previous)).error).toBeUndefined();
        const recent = new Date(Math.floor(Date.now() / 60_000) * 60_000 - 3600_000).toISOString();
        const times = ['1990-05-01T00:00:00.000Z', '2026-01-15T03:00:00.000Z', '2026-01-15T04:00:00.000Z', recent];
        const future = '2099-01-01T00:00:00.000Z';
        for (const [i, time] of [...times, future].entries()) {
          await sql`INSERT INTO gps_logs (car_data_id, recorded_at, lat, lng, speed) VALUES (${terminalA.imei}, ${time}, ${35 + i / 100}, 139.7, ${i})`.execute(
            blank.db,
          );
          await sql`INSERT INTO battery_logs (car_data_id, recorded_at, voltage) VALUES (${terminalA.imei}, ${time}, ${12 + i / 10})`.execute(
            blank.db,
          );
        }
        await sql`INSERT INTO error_logs (car_data_id, recorded_at, error_type, status_code) VALUES (${terminalB.imei}, ${times[1]}, 'gps', 2001)`.execute(
          blank.db,
        );
        const before = await sql<{ id: number }>`SELECT id FROM battery_logs ORDER BY recorded_at DESC`.execute(
          blank.db,
        );

        expect((await migrator.migrateToLatest()).error).toBeUndefined();
        const db = blank.db as Db;
        const day = (iso: string) => iso.slice(0, 10).replace(/-/g, '');
        expect(await placement(db, 'gps_logs', terminalA.imei)).toEqual([
          ['gps_logs_default', times[0]],
          ['gps_logs_p20260115', times[1]],
          ['gps_logs_p20260115', times[2]],
          [`gps_logs_p${day(recent)}`, recent],
          ['gps_logs_default', future],
        ]);
        expect(await partitionsOf(db, 'error_logs')).toContain('error_logs_p20260115');
        expect(
          (await sql<{ n: number }>`SELECT count(*)::int AS n FROM error_logs_p20260115`.execute(db)).rows[0]!.n,
        ).toBe(1);
        // The old tables are gone; the partitioned ones keep their ids and hand out higher ones.
        expect((await sql`SELECT to_regclass('gps_logs_unpartitioned') AS t`.execute(db)).rows).toEqual([{ t: null }]);

        await seedFixtures(db);
        const app = await buildApp({
          db,
          config: loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DATABASE_URL: inject('databaseUrl') }),
          logger: false,
        });
        try {
          const token = await login(app, 'staffA');
          const battery = await callAs(app, token, carGetBatteryLog, { car_data_id: terminalA.imei, limit: 2 });
          expect(battery.status, battery.raw.body).toBe(200);
          expect(battery.body.list.map((r) => r.id)).toEqual(before.rows.slice(0, 2).map((r) => r.id));
          // Paging on: across the default and the day partitions, newest first, nothing repeated or skipped.
          const seen = battery.body.list.map((r) => r.recorded_at);
          for (let cursor = battery.body.next_before_id; cursor !== null;) {
            const page = await callAs(app, token, carGetBatteryLog, {
              car_data_id: terminalA.imei,
              limit: 2,
              before_id: cursor,
            });
            expect(page.status, page.raw.body).toBe(200);
            seen.push(...page.body.list.map((r) => r.recorded_at));
            cursor = page.body.next_before_id;
          }
          expect(seen).toEqual([future, ...[...times].reverse()]);
          const gps = await callAs(app, token, carGetGpsLog, { car_data_id: terminalA.imei });
          expect(gps.status, gps.raw.body).toBe(200);
          expect(gps.body.list.map((p) => p.speed)).toEqual([0, 1, 2, 3, 4]);
          const added = await sql<{ id: number }>`
          INSERT INTO battery_logs (car_data_id, recorded_at, voltage) VALUES (${terminalA.imei}, now(), 13) RETURNING id`.execute(
            db,
          );
          expect(Number(added.rows[0]!.id)).toBeGreaterThan(Math.max(...before.rows.map((r) => Number(r.id))));
        } finally {
          await app.close();
        }
      } finally {
        await blank.close();
      }
    },
  );
});

describe('partitions ahead and retention', () => {
  let t: TestApp;
  const NOW = new Date('2030-03-13T12:00:00Z');
  beforeAll(async () => {
    t = await createTestApp();
    await seedFixtures(t.db);
  });
  afterAll(() => t?.close());

  const insert = (table: 'gps_logs' | 'battery_logs', imei: string, time: string) =>
    table === 'gps_logs'
      ? sql`INSERT INTO gps_logs (car_data_id, recorded_at, lat, lng) VALUES (${imei}, ${time}, 35.6, 139.7)`.execute(
          t.db,
        )
      : sql`INSERT INTO battery_logs (car_data_id, recorded_at, voltage) VALUES (${imei}, ${time}, 12.5)`.execute(t.db);

  it('creates the days ahead for every log, once, moving rows of those days out of the default', async () => {
    await insert('gps_logs', terminalA.imei, '2030-03-14T05:00:00.000Z');
    expect(await placement(t.db, 'gps_logs', terminalA.imei)).toEqual([
      ['gps_logs_default', '2030-03-14T05:00:00.000Z'],
    ]);
    const created = await ensureLogPartitions(t.db, new Date('2030-03-11T23:59:00Z'));
    expect(created).toHaveLength(7 * (PARTITIONS_AHEAD_DAYS + 1));
    for (const table of ['gps_logs', 'engine_logs', 'error_logs', 'obd2_logs']) {
      expect(await partitionsOf(t.db, table)).toEqual(
        expect.arrayContaining(['11', '12', '13', '14'].map((d) => `${table}_p203003${d}`)),
      );
    }
    expect(await placement(t.db, 'gps_logs', terminalA.imei)).toEqual([
      ['gps_logs_p20300314', '2030-03-14T05:00:00.000Z'],
    ]);
    expect(await ensureLogPartitions(t.db, new Date('2030-03-11T23:59:00Z'))).toEqual([]);
    // The next day adds just the one new day per log.
    expect((await ensureLogPartitions(t.db, new Date('2030-03-12T00:00:00Z'))).sort()).toEqual(
      ['battery', 'connection', 'engine', 'error', 'gps', 'obd2', 'sensor'].map((k) => `${k}_logs_p20300315`),
    );
  });

  it('the job drops whole days older than TELEMETRY_RETENTION_DAYS and the default partition’s old rows, keeping the rest, and packs finished days’ indexes', async () => {
    await ensureLogPartitions(t.db, new Date('2030-03-10T00:00:00Z'), 0);
    const kept = ['2030-03-11T00:00:00.000Z', '2030-03-12T09:00:00.000Z', '2030-03-13T11:00:00.000Z'];
    const gone = ['2030-03-05T08:00:00.000Z', '2030-03-10T23:59:59.999Z'];
    const future = '2031-01-01T00:00:00.000Z';
    for (const time of [...gone, ...kept, future]) {
      await insert('battery_logs', terminalA.imei, time);
      await insert('battery_logs', terminalB.imei, time);
    }
    expect((await placement(t.db, 'battery_logs', terminalA.imei)).map(([p]) => p)).toEqual([
      'battery_logs_default',
      'battery_logs_p20300310',
      'battery_logs_p20300311',
      'battery_logs_p20300312',
      'battery_logs_p20300313',
      'battery_logs_default',
    ]);
    // TELEMETRY_RETENTION_DAYS unset: the job keeps everything.
    const keepAll = serverJobs({ db: t.db, config: loadConfig({ NODE_ENV: 'test' }), log: silent, clock: () => NOW });
    await keepAll.jobs.find((j) => j.name === 'telemetry partitions')!.run();
    await keepAll.close();
    expect(await placement(t.db, 'battery_logs', terminalA.imei)).toHaveLength(6);

    const config = loadConfig({ NODE_ENV: 'test', TELEMETRY_RETENTION_DAYS: '2' });
    const { jobs, close } = serverJobs({ db: t.db, config, log: silent, clock: () => NOW });
    await jobs.find((j) => j.name === 'telemetry partitions')!.run();
    await close();
    for (const imei of [terminalA.imei, terminalB.imei]) {
      expect(await placement(t.db, 'battery_logs', imei)).toEqual([
        ['battery_logs_p20300311', kept[0]],
        ['battery_logs_p20300312', kept[1]],
        ['battery_logs_p20300313', kept[2]],
        ['battery_logs_default', future],
      ]);
    }
    for (const table of ['battery_logs', 'gps_logs', 'sensor_logs']) {
      const parts = await partitionsOf(t.db, table);
      expect(parts.filter((p) => p < `${table}_p20300311` && p.startsWith(`${table}_p`))).toEqual([]);
      expect(parts).toContain(`${table}_p20300311`);
      expect(parts).toContain(`${table}_default`);
    }
    // Finished days got their index rebuilt packed (once); today's is left as ingest writes it.
    const packed = async (partition: string) =>
      (
        await sql<{ options: string[] | null }>`
          SELECT c.reloptions AS options FROM pg_index x JOIN pg_class c ON c.oid = x.indexrelid
          WHERE x.indrelid = to_regclass(${partition}) AND x.indisvalid AND NOT c.relam = (SELECT oid FROM pg_am WHERE amname = 'brin')`.execute(
          t.db,
        )
      ).rows.map((r) => (r.options ?? []).includes('fillfactor=100'));
    expect(await packed('battery_logs_p20300311')).toEqual([true]);
    expect(await packed('battery_logs_p20300312')).toEqual([true]);
    expect(await packed('battery_logs_p20300313')).toEqual([false]);
    expect(await compactLogPartitions(t.db, NOW, false)).toEqual([]);
    // Dropped, not only detached.
    expect((await sql`SELECT to_regclass('battery_logs_p20300310') AS t`.execute(t.db)).rows).toEqual([{ t: null }]);
    // A second run finds nothing more to do.
    const again = await applyTelemetryRetention(t.db, NOW, 2);
    expect(again!.droppedPartitions).toEqual([]);
    expect(Object.values(again!.deleted).every((n) => n === 0)).toBe(true);
  });

  it('rejects a negative or fractional TELEMETRY_RETENTION_DAYS', () => {
    expect(() => loadConfig({ NODE_ENV: 'test', TELEMETRY_RETENTION_DAYS: '-1' })).toThrow(/TELEMETRY_RETENTION_DAYS/);
    expect(() => loadConfig({ NODE_ENV: 'test', TELEMETRY_RETENTION_DAYS: '1.5' })).toThrow(/TELEMETRY_RETENTION_DAYS/);
    expect(loadConfig({ NODE_ENV: 'test' }).TELEMETRY_RETENTION_DAYS).toBe(0);
  });
});

const silent = { info: () => undefined, warn: () => undefined, error: () => undefined, debug: () => undefined };

/** The statements a read runs, compiled as Kysely sends them. */
async function statementsOf(db: Db, read: (db: Db) => Promise<unknown>): Promise<CompiledQuery[]> {
  const compiler = new PostgresQueryCompiler();
  const compiled = new Map<string, CompiledQuery>();
  const ran: CompiledQuery[] = [];
  const plugin: KyselyPlugin = {
    transformQuery(args) {
      compiled.set(args.queryId.queryId, compiler.compileQuery(args.node, args.queryId));
      return args.node;
    },
    async transformResult(args) {
      const c = compiled.get(args.queryId.queryId);
      if (c) ran.push(c);
      return args.result;
    },
  };
  await read(withPlugin(db, plugin));
  return ran;
}

/**
 * The node types and index names of a statement's plan: by default with sequential and bitmap scans off (the
 * data is small); `asPlanned`, the planner's own choice.
 */
async function planOf(db: Db, c: CompiledQuery, asPlanned = false) {
  return db.transaction().execute(async (trx) => {
    if (!asPlanned) {
      await sql`SET LOCAL enable_seqscan = off`.execute(trx);
      await sql`SET LOCAL enable_bitmapscan = off`.execute(trx);
    }
    const { rows } = await trx.executeQuery<{ 'QUERY PLAN': unknown }>(
      CompiledQuery.raw(`EXPLAIN (FORMAT JSON) ${c.sql}`, [...c.parameters]),
    );
    const raw = rows[0]!['QUERY PLAN'];
    const plan = (typeof raw === 'string' ? JSON.parse(raw) : raw) as [{ Plan: PlanNode }];
    const nodes: PlanNode[] = [];
    const sub: PlanNode[] = [];
    const walk = (n: PlanNode, inSub: boolean) => {
      const below = inSub || n['Parent Relationship'] === 'InitPlan' || n['Parent Relationship'] === 'SubPlan';
      nodes.push(n);
      if (below) sub.push(n);
      for (const c of n.Plans ?? []) walk(c, below);
    };
    walk(plan[0].Plan, false);
    return {
      types: nodes.map((n) => n['Node Type']),
      /** The node types outside its subqueries (the cursor row's lookup is one). */
      outerTypes: nodes.filter((n) => !sub.includes(n)).map((n) => n['Node Type']),
      indexes: nodes.flatMap((n) => (n['Index Name'] ? [n['Index Name']] : [])),
      /** The tables (partitions) the statement's subqueries read, and the ones the rest of it reads. */
      subqueryTables: sub.flatMap((n) => (n['Relation Name'] ? [n['Relation Name']] : [])),
      outerTables: nodes.flatMap((n) => (n['Relation Name'] && !sub.includes(n) ? [n['Relation Name']] : [])),
    };
  });
}
interface PlanNode {
  'Node Type': string;
  'Index Name'?: string;
  'Relation Name'?: string;
  'Parent Relationship'?: string;
  Plans?: PlanNode[];
}

describe('logs indexed by terminal and minute (issue #19: storage)', () => {
  let t: TestApp;
  const imei = terminalA.imei;
  beforeAll(async () => {
    t = await createTestApp();
    await seedFixtures(t.db);
    // 3,000 records of each log read here, one every 20 s over the last 17 hours (today's and yesterday's partitions).
    await sql`INSERT INTO battery_logs (car_data_id, recorded_at, voltage)
      SELECT ${imei}, now() - g * interval '20 seconds', 12 FROM generate_series(0, 2999) g`.execute(t.db);
    await sql`INSERT INTO gps_logs (car_data_id, recorded_at, lat, lng)
      SELECT ${imei}, now() - g * interval '20 seconds', 35.6, 139.7 FROM generate_series(0, 2999) g`.execute(t.db);
    await sql`ANALYZE battery_logs`.execute(t.db);
    await sql`ANALYZE gps_logs`.execute(t.db);
  });
  afterAll(() => t?.close());

  /** The terminal's row of a log `offset` rows from the newest. */
  const rowAt = async (offset: number, kind: 'battery' | 'gps' = 'battery', terminal: string = imei) =>
    (
      await sql<{ id: number; recorded_at: Date }>`SELECT id, recorded_at FROM ${sql.table(logTables[kind])}
        WHERE car_data_id = ${terminal} ORDER BY recorded_at DESC, id DESC OFFSET ${offset} LIMIT 1`.execute(t.db)
    ).rows[0]!;
  /** A page of a log's rows before `row` (or its first page), by the row's id alone or with its time as a page gives it. */
  const pageRead =
    (
      kind: 'battery' | 'gps',
      limit: number,
      row?: { id: number; recorded_at: Date },
      withTime = false,
      terminal: string = imei,
    ) =>
    (db: Db) =>
      findLogPage(db, kind, {
        car_data_id: terminal,
        from: null,
        to: null,
        limit,
        ...(row ? { before_id: Number(row.id) } : {}),
        ...(row && withTime ? { before_at: new Date(row.recorded_at).toISOString() } : {}),
      });
  /** The statements of a 50-row battery page before `row`. */
  const pageBefore = (row: { id: number; recorded_at: Date }, withTime = false) =>
    statementsOf(t.db, pageRead('battery', 50, row, withTime));

  it('a newest-first page and a page before a row (by its id, or its id and time) read the per-terminal index in its order: GPS sorting one minute at a time, the other logs in the index’s order, unsorted', async () => {
    for (const kind of ['gps', 'battery'] as const) {
      const row = await rowAt(1500, kind);
      const statements = [
        ...(await statementsOf(t.db, pageRead(kind, 50))),
        ...(await statementsOf(t.db, pageRead(kind, 50, row))),
        // With the cursor's time as well: its bounds once made the planner expect a few hundred of the 1,500 rows
        // left, read them all by bitmap and sort them (log-order.ts cursorDays).
        ...(await statementsOf(t.db, pageRead(kind, 50, row, true))),
      ];
      expect(statements).toHaveLength(3);
      for (const statement of statements) {
        const plan = await planOf(t.db, statement);
        // Without the minute first in the order, each partition's rows of the terminal are sorted whole (a Sort).
        expect(plan.types, statement.sql).not.toContain('Sort');
        // GPS's index has the minute alone (a shared key for a minute's rows: its storage); the other logs' index
        // is in the page's order, (car_data_id, recorded_at, id) (migration log_page_order_index): nothing is sorted.
        if (kind === 'gps') expect(plan.types, statement.sql).toContain('Incremental Sort');
        else expect(plan.types, statement.sql).not.toContain('Incremental Sort');
        expect(plan.indexes.length, statement.sql).toBeGreaterThan(0);
        expect(
          plan.indexes.every((name) => name.includes(kind === 'gps' ? 'log_minute' : 'recorded_at_id')),
          plan.indexes.join(),
        ).toBe(true);
        // The minute is GPS's alone: the other logs order and bound by the time.
        if (kind === 'battery') expect(statement.sql).not.toContain('log_minute');
      }
    }
  });

  it('a page deep in a busy log, before a row whose time it knows, is planned in the index order, not read whole and sorted', async () => {
    // 100,000 records of another terminal, one a second; the page 90,000 rows deep leaves 10,000 older ones.
    // The cursor's bounds once made the planner expect a few hundred of them (its time bound and its minute
    // bound, one condition counted twice), so it read all 10,000 by bitmap and sorted them (log-order.ts).
    const busy = terminalB.imei;
    await sql`INSERT INTO battery_logs (car_data_id, recorded_at, voltage)
      SELECT ${busy}, now() - interval '1 minute' - g * interval '1 second', 12 FROM generate_series(0, 99999) g`.execute(
      t.db,
    );
    await sql`INSERT INTO gps_logs (car_data_id, recorded_at, lat, lng)
      SELECT ${busy}, now() - interval '1 minute' - g * interval '1 second', 35.6, 139.7 FROM generate_series(0, 99999) g`.execute(
      t.db,
    );
    await sql`ANALYZE battery_logs`.execute(t.db);
    await sql`ANALYZE gps_logs`.execute(t.db);
    for (const kind of ['gps', 'battery'] as const) {
      const cursor = await rowAt(90000, kind, busy);
      const deepPage = pageRead(kind, 1000, cursor, true, busy);
      const [statement] = await statementsOf(t.db, deepPage);
      const plan = await planOf(t.db, statement!, true);
      expect(plan.outerTypes, statement!.sql).not.toContain('Sort');
      expect(plan.outerTypes, statement!.sql).not.toContain('Bitmap Heap Scan');
      if (kind === 'gps') expect(plan.outerTypes, statement!.sql).toContain('Incremental Sort');
      else expect(plan.outerTypes, statement!.sql).not.toContain('Incremental Sort');
      const page = await deepPage(t.db);
      expect(page.rows).toHaveLength(1000);
      expect(page.rows.every((r) => new Date(r.recorded_at) < cursor.recorded_at)).toBe(true);
    }
  });

  it("a page before a row whose time the previous page gave looks for that row in its day's partition alone, and reads no later day", async () => {
    const row = await rowAt(1500);
    const without = await planOf(t.db, (await pageBefore(row))[0]!);
    const known = await planOf(t.db, (await pageBefore(row, true))[0]!);
    // Every day's partition (the days created ahead and the default one too) without the time; its own with it.
    expect(new Set(without.subqueryTables).size).toBeGreaterThan(3);
    const cursorDay = row.recorded_at.toISOString().slice(0, 10).replace(/-/g, '');
    expect(known.subqueryTables).toEqual([`battery_logs_p${cursorDay}`]);
    // The days created ahead (after the cursor's) are read without the time, not with it.
    const later = (tables: string[]) => tables.filter((name) => /_p\d{8}$/.test(name) && name.slice(-8) > cursorDay);
    expect(later(without.outerTables).length).toBeGreaterThan(0);
    expect(later(known.outerTables)).toEqual([]);
  });

  it('log_minute is the minute since 1970 of any instant, whatever the session’s time zone (an index key must not move)', async () => {
    const differing = (zone: string) =>
      t.db.transaction().execute(async (trx) => {
        await sql`SELECT set_config('TimeZone', ${zone}, true)`.execute(trx);
        const { rows } = await sql<{ n: number; total: number }>`
          SELECT count(*) FILTER (WHERE log_minute(at) <> floor(extract(epoch FROM at) / 60))::int AS n, count(*)::int AS total
          FROM (SELECT to_timestamp(0) + g * interval '37.123457 seconds' AS at FROM generate_series(-200000, 200000) g
                UNION ALL SELECT x::timestamptz FROM unnest(${[
                  '1969-12-31T23:59:59.999999Z',
                  '1970-01-01T00:00:00Z',
                  '2026-03-29T01:00:00Z',
                  '2099-12-31T23:59:59.999999Z',
                ]}::text[]) x) s`.execute(trx);
        return rows[0]!;
      });
    for (const zone of ['UTC', 'Asia/Tokyo', 'America/New_York', 'Europe/London'])
      expect(await differing(zone)).toEqual({ n: 0, total: 400_005 });
  });

  it('a newest-first page reads the days up to its own and the one before when they hold it, and the older days only for the rest (in one statement while the window is known short)', async () => {
    // 100 readings on each of the 3rd to 6th days before today, in day partitions of their own.
    const today = startOfUtcDay(new Date());
    const old = [3, 4, 5, 6].map((d) => new Date(today.getTime() - d * DAY_MS));
    for (const day of old) {
      await createLogPartition(t.db, 'battery_logs', day);
      await sql`INSERT INTO battery_logs (car_data_id, recorded_at, voltage)
        SELECT ${imei}, ${day.toISOString()}::timestamptz + g * interval '10 minutes', 11 FROM generate_series(0, 99) g`.execute(
        t.db,
      );
    }
    await sql`ANALYZE battery_logs`.execute(t.db);
    const ids = (
      await sql<{
        id: number;
      }>`SELECT id FROM battery_logs WHERE car_data_id = ${imei} ORDER BY recorded_at DESC, id DESC`.execute(t.db)
    ).rows.map((r) => Number(r.id));
    const hints = new ShortWindows();
    const read = (limit: number, before?: { id: number; recorded_at: Date }) => (db: Db) =>
      findLogPage(
        db,
        'battery',
        {
          car_data_id: imei,
          from: null,
          to: null,
          limit,
          ...(before ? { before_id: Number(before.id), before_at: before.recorded_at.toISOString() } : {}),
        },
        hints,
      );
    const days = (tables: string[]) => tables.flatMap((name) => /_p(\d{8})$/.exec(name)?.slice(1) ?? []);
    const oldDays = old.map((day) => day.toISOString().slice(0, 10).replace(/-/g, ''));
    // A first page of 50 and a page of 50 before the 1,500th row: one statement each, reading none of the old days.
    for (const reader of [read(50), read(50, await rowAt(1500))]) {
      const statements = await statementsOf(t.db, reader);
      expect(statements).toHaveLength(1);
      const opened = days((await planOf(t.db, statements[0]!)).outerTables);
      expect(opened.length).toBeGreaterThan(0);
      expect(opened.filter((day) => oldDays.includes(day))).toEqual([]);
    }
    // A page of 3,100 takes the 3,000 readings of today and yesterday, then the older days for 100 more: the log's first rows.
    const statements = await statementsOf(t.db, read(3100));
    expect(statements).toHaveLength(2);
    expect(days((await planOf(t.db, statements[1]!)).outerTables).sort()).toEqual([...oldDays].sort());
    // Its window came up short: for a while a read of as many rows takes one statement, as before the window;
    // a smaller page still takes the window's days alone.
    expect(await statementsOf(t.db, read(3100))).toHaveLength(1);
    const page = await read(3100)(t.db);
    expect(page.rows.map((r) => Number(r.id))).toEqual(ids.slice(0, 3100));
    expect(page.more).toBe(true);
    const small = await statementsOf(t.db, read(50));
    expect(small).toHaveLength(1);
    expect(days((await planOf(t.db, small[0]!)).outerTables).filter((day) => oldDays.includes(day))).toEqual([]);
    // The whole log in one page: every row, the last page.
    const all = await read(5000)(t.db);
    expect(all.rows.map((r) => Number(r.id))).toEqual(ids);
    expect(all.more).toBe(false);
  });

  it('pages newest first through minutes and days without repeating or skipping a row', async () => {
    const all = await sql<{ id: number }>`SELECT id FROM battery_logs WHERE car_data_id = ${imei}
      ORDER BY recorded_at DESC, id DESC`.execute(t.db);
    // By the cursor row's id alone, and with its time as an answer gives it (to the millisecond).
    for (const withTime of [false, true]) {
      const seen: number[] = [];
      let before: { id: number; at: Date | string } | undefined;
      for (;;) {
        const page = await findLogPage(t.db, 'battery', {
          car_data_id: imei,
          from: null,
          to: null,
          limit: 700,
          ...(before === undefined ? {} : { before_id: before.id }),
          ...(before !== undefined && withTime ? { before_at: new Date(before.at).toISOString() } : {}),
        });
        seen.push(...page.rows.map((r) => Number(r.id)));
        if (!page.more) break;
        const last = page.rows.at(-1)!;
        before = { id: Number(last.id), at: last.recorded_at };
      }
      expect(seen).toEqual(all.rows.map((r) => Number(r.id)));
    }
  });
});
