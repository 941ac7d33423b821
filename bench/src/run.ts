/**
 * npm run bench [-- --quick] [--db=pglite|pg|both] [--only=lists,ingest,ingest-tcp,fleetmap,trips,geocode,compression,...]
 *
 * Builds a fleet in a database of its own, starts the real server on it and
 * measures every figure of bench/README.md beside its anchor; prints a table
 * and writes bench/results/<date>-<db>[-quick][-only-<sections>].md. PostgreSQL when
 * DATABASE_URL is set or --db=pg (the server DATABASE_URL names; a database
 * fleet_bench_<pid> is created there and dropped), PGlite otherwise.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser } from '@playwright/test';
import { recountLists } from '@fleet/server/list-counts';
import { rebuildSearchIndexes } from '@fleet/server/search-indexes';
import { launch } from './browser.js';
import { benchFleetMap } from './fleet-map.js';
import { benchPartitions } from './partitions.js';
import { DEFAULT_PG_URL, openBenchDb, type BenchDb, type DbKind } from './db.js';
import { benchCompression } from './compression.js';
import { benchExport } from './export.js';
import { benchGeocode } from './geocode.js';
import { benchFrontend } from './frontend.js';
import { FULL, generateFleet, QUICK, type Fleet, type FleetSize } from './generate.js';
import { benchIngest } from './ingest.js';
import { benchIngestTcp } from './ingest-tcp.js';
import { benchLists } from './lists.js';
import { benchLoad } from './load.js';
import { fromAnySource } from './sources.js';
import { benchChart, benchLogTable } from './logs.js';
import { machine } from './machine.js';
import { benchLogin, benchPurge, benchStorage } from './misc.js';
import { Report } from './report.js';
import { benchRoute } from './route.js';
import { startServer } from './server.js';
import { benchStall } from './stall.js';
import { benchTrips } from './trips.js';
import { benchZones } from './zones.js';
import { int } from './stats.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '../..');
const args = process.argv.slice(2);
const flag = (name: string) =>
  args.find((a) => a === `--${name}` || a.startsWith(`--${name}=`))?.split('=')[1] ??
  (args.includes(`--${name}`) ? '' : undefined);

const quick = flag('quick') !== undefined;
const dbArg = flag('db') ?? (process.env.DATABASE_URL ? 'pg' : 'pglite');
const kinds: DbKind[] =
  dbArg === 'both' ? ['pglite', 'postgres'] : dbArg === 'pg' || dbArg === 'postgres' ? ['postgres'] : ['pglite'];
const only = flag('only')?.split(',').filter(Boolean);
const serverUrl = process.env.DATABASE_URL || DEFAULT_PG_URL;
/** --vehicles=, --telemetry-vehicles=, --days=, --log-rows= override the size (e.g. a shorter history on PGlite); --load-seconds= and --load-interval= the load run's length and each terminal's seconds between batches. */
const num = (name: string) => (flag(name) ? Number(flag(name)) : undefined);
const base = quick ? QUICK : FULL;
const size: FleetSize = {
  ...base,
  vehicles: num('vehicles') ?? base.vehicles,
  telemetryVehicles: num('telemetry-vehicles') ?? base.telemetryVehicles,
  days: num('days') ?? base.days,
  busyLogRows: num('log-rows') ?? base.busyLogRows,
};
const sized = ['vehicles', 'telemetry-vehicles', 'days', 'log-rows'].some((n) => flag(n) !== undefined);
/** --reuse: keep the generated PostgreSQL database (fleet_bench_keep_<size>) for the next run; drop it by hand. */
const reuse = flag('reuse') !== undefined ? `fleet_bench_keep_${quick ? 'quick' : 'full'}` : undefined;
const wanted = (section: string) => !only || only.includes(section);
/** The load run's length and each terminal's seconds between batches; named in the results file when not the defaults. */
const loadSeconds = num('load-seconds') ?? (quick ? 15 : 60);
const loadInterval = num('load-interval') ?? 10;
const loadShape =
  flag('load-seconds') !== undefined || flag('load-interval') !== undefined
    ? `-load-${loadSeconds}s-every-${loadInterval}s`
    : '';
/** --tcp-sockets=: the TCP ingest section's terminals (default 1,000; 200 with --quick or on PGlite). */
const tcpSockets = num('tcp-sockets');
/**
 * --ingest-batches=: batches per terminal of the ingest section's back-to-back run (default 10; 4 with --quick, where
 * a quarter of the batches are a terminal's first: a new connection, and a lookup its later batches do not make).
 * The run goes in two turns with the raw INSERT (ingest.ts), so at least 2 a turn keep a turn's start and end small.
 */
const ingestBatches = num('ingest-batches');
/**
 * --ingest-warmup=: untimed batches per terminal before the ingest section's timed turns (default 10). With one,
 * V8 was still compiling the gateway's code in the first timed turn (27 November 20:00: its helper threads took 104
 * ticks of CPU there against 45 in the second, and the server 27.3-28.9 µs a record against 22.0-23.6 after ten).
 */
const ingestWarmup = num('ingest-warmup') ?? 10;
const log = (s: string) => console.log(`[bench ${new Date().toISOString().slice(11, 19)}] ${s}`);

/** The console built into a folder of the bench's own, so a run never touches apps/web/dist. */
function buildWeb(): string {
  // A console built beforehand (another revision, for a before/after in one session): served as it is.
  if (process.env.BENCH_WEB_ROOT) return process.env.BENCH_WEB_ROOT;
  const out = mkdtempSync(path.join(tmpdir(), 'fleet-bench-web-'));
  log('building the console (vite build)');
  execFileSync(
    'npx',
    [
      'vite',
      'build',
      '--outDir',
      out,
      '--emptyOutDir',
      '--logLevel',
      'warn',
      // Readable names in the fleet map's CPU profiles (bench/HISTORY.md, "Fleet map").
      ...(process.env.FLEETMAP_PROFILE ? ['--minify', 'false'] : []),
    ],
    {
      cwd: path.join(repoRoot, 'apps/web'),
      stdio: 'inherit',
    },
  );
  return out;
}

async function section(report: Report, name: string, fn: () => Promise<unknown>) {
  if (!wanted(name)) return;
  log(`— ${name}`);
  const started = performance.now();
  try {
    await fn();
  } catch (err) {
    report.add({
      section: name,
      name: 'FAILED',
      value: String((err as Error).stack ?? err)
        .split('\n')
        .slice(0, 3)
        .join(' '),
      met: false,
    });
  }
  log(`  ${name} took ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

/** The fleet of a kept database, generated on the first run and remembered in a table of the bench's own. */
async function keptFleet(bdb: BenchDb, s: FleetSize): Promise<Fleet> {
  await bdb.raw('CREATE TABLE IF NOT EXISTS bench_fleet (info jsonb NOT NULL)');
  const [row] = await bdb.raw<{ info: Fleet }>('SELECT info FROM bench_fleet');
  if (row) {
    log('reusing the kept database and its fleet');
    return { ...row.info, now: new Date(row.info.now) };
  }
  const fleet = await generateFleet(bdb, s, log);
  await bdb.raw('INSERT INTO bench_fleet (info) VALUES ($1)', [JSON.stringify(fleet)]);
  return fleet;
}

async function runOne(kind: DbKind, webRoot: string | undefined, browser: Browser | null) {
  const report = new Report();
  const started = Date.now();
  log(`${kind}${quick ? ' (quick)' : ''}: opening a database of its own`);
  const bdb = await openBenchDb(kind, serverUrl, kind === 'postgres' ? reuse : undefined);
  const version = bdb.version;
  try {
    const fleet = reuse && kind === 'postgres' ? await keptFleet(bdb, size) : await generateFleet(bdb, size, log);
    // What the server's 'list counts' job does at start: the lists' counts summed from their tables, where the
    // generator's statements left a delta each (apps/server/src/db/list-counts.ts). And what its 'search indexes'
    // job does within the hour: the generator writes every terminal twice (its row, then its vehicle's id), so
    // their search indexes are rebuilt (apps/server/src/db/search-indexes.ts).
    await recountLists(bdb.db);
    const rebuilt = await rebuildSearchIndexes(bdb.db, { concurrently: kind === 'postgres' });
    if (rebuilt.length) log(`search indexes rebuilt after the generator's rewrites: ${rebuilt.join(', ')}`);
    const total = Object.values(fleet.rows).reduce((a, b) => a + b, 0);
    report.add({
      section: 'data',
      name: `generated: ${int(size.vehicles)} vehicles/customers/terminals/accounts, ${size.companies} companies, ${size.days} day(s) of telemetry for ${int(size.telemetryVehicles)} vehicles + the busy one`,
      value: `${fleet.seconds.toFixed(0)} s`,
      anchor:
        Object.entries(fleet.rows)
          .map(([t, n]) => `${t} ${int(n)}`)
          .join(', ') + ` (${int(total / fleet.seconds)} telemetry rows/s incl. master data time)`,
    });
    const server = await startServer(bdb, webRoot);
    log(`server at ${server.url}`);
    try {
      await section(report, 'lists', () => benchLists(bdb, server, report, { quick, duration: quick ? 2 : 5 }));
      await section(report, 'route', () => benchRoute(bdb, server, browser, fleet, report));
      await section(report, 'logs', async () => {
        if (browser) await benchChart(browser, report);
        await benchLogTable(bdb, server, fleet, report);
      });
      await section(report, 'export', () => benchExport(server, fleet, report));
      await section(report, 'stall', () => benchStall(bdb, server, fleet, report));
      if (browser && webRoot)
        await section(report, 'frontend', () => benchFrontend(browser, server, webRoot, fleet, report));
      await section(report, 'fleetmap', () => benchFleetMap(webRoot ? browser : null, server, bdb, fleet, report));
      await section(report, 'login', () => benchLogin(server, report));
      await section(report, 'compression', () => benchCompression(server, fleet, report));
      // One ingest measurement for the ingest section and those that repeat it beside a job or with zones.
      const ingest = {
        terminals: Math.min(1000, size.vehicles),
        batchesPerTerminal: ingestBatches ?? (quick ? 4 : 10),
        recordsPerBatch: 50,
        pacedBatches: quick ? 3 : 8,
        warmupBatches: ingestWarmup,
      };
      // The terminals these sections drive report from this machine, whatever their generated ipaddr says.
      await fromAnySource(bdb, Math.min(1000, size.vehicles), async () => {
        await section(report, 'ingest', () => benchIngest(bdb, server, report, ingest));
        // PGlite stores from the server's one thread, a frame's AVL records one batch each: a smaller run there.
        await section(report, 'ingest-tcp', () =>
          benchIngestTcp(bdb, server, report, {
            terminals: Math.min(tcpSockets ?? (quick || kind === 'pglite' ? 200 : 1000), Math.floor(size.vehicles / 2)),
            framesPerTerminal: kind === 'pglite' ? 2 : quick ? 5 : 10,
            recordsPerFrame: 20,
          }),
        );
        await section(report, 'load', () =>
          benchLoad(bdb, server, fleet, report, {
            seconds: loadSeconds,
            connections: 50,
            terminals: Math.min(1000, size.vehicles),
            intervalMs: loadInterval * 1000,
          }),
        );
        await section(report, 'zones', () => benchZones(bdb, server, report, { ingest }));
        await section(report, 'geocode', () => benchGeocode(bdb, server, report, { ingest }));
        await section(report, 'trips', () =>
          benchTrips(bdb, server, fleet, report, {
            vehicles: Math.min(10_000, size.vehicles),
            ingest,
          }),
        );
      });
      await section(report, 'storage', () => benchStorage(bdb, report));
      await section(report, 'partitions', () => benchPartitions(bdb, server, fleet, report));
      await section(report, 'purge', () => benchPurge(bdb, fleet, report));
    } finally {
      await server.close();
    }
  } finally {
    await bdb.close();
  }
  const date = new Date().toISOString().slice(0, 10);
  const title = `Fleet bench ${date}, ${kind}${quick ? " (--quick: checks it works; figures are not the targets' scale)" : ''}`;
  const md = report.markdown(title, machine(), {
    database: `${kind}: ${version}`,
    size: `${quick ? 'quick' : 'full'}${sized ? ` (${size.vehicles} vehicles, ${size.days} days × ${size.telemetryVehicles}, ${size.busyLogRows} log rows)` : ''}`,
    'run time': `${((Date.now() - started) / 60_000).toFixed(1)} min`,
    command: `npm run bench -- ${args.join(' ')}`.trim(),
  });
  const file = report.write(
    path.join(repoRoot, 'bench/results'),
    // An --only run names its sections, so it never overwrites a whole run's file.
    `${date}-${kind}${quick ? '-quick' : ''}${sized ? '-sized' : ''}${only ? `-only-${only.join('-')}` : ''}${loadShape}${tcpSockets ? `-tcp-${tcpSockets}` : ''}${ingestBatches ? `-ingest-${ingestBatches}` : ''}.md`,
    md,
  );
  console.log(`\n${report.table()}\n`);
  log(`written ${path.relative(repoRoot, file)}`);
  return report;
}

async function main() {
  log(`machine: ${JSON.stringify(machine())}`);
  const needsBrowser = ['route', 'logs', 'frontend', 'fleetmap'].some(wanted);
  const webRoot = wanted('route') || wanted('frontend') || wanted('fleetmap') ? buildWeb() : undefined;
  let browser: Browser | null = null;
  if (needsBrowser) {
    try {
      browser = await launch();
    } catch (err) {
      log(`no browser (${(err as Error).message.split('\n')[0]}): browser figures are skipped`);
    }
  }
  let missed = 0;
  try {
    for (const kind of kinds) {
      const report = await runOne(kind, webRoot, browser);
      missed += report.figures.filter((f) => f.met === false).length;
    }
  } finally {
    await browser?.close();
    if (webRoot && !process.env.BENCH_WEB_ROOT) rmSync(webRoot, { recursive: true, force: true });
  }
  log(`done: ${missed} figure(s) missed their target`);
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
