import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os, { tmpdir } from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { accountSortColumns, carSortColumns, carUserSortColumns, deviceSortColumns } from '@fleet/contract';
import { runClient } from './child.js';
import type { BenchDb } from './db.js';
import { deviceId, imei, rng, TERMINAL_SECRET, type Fleet } from './generate.js';
import type { IngestPlan } from './ingest-records.js';
import type { Report } from './report.js';
import { call, login, type BenchServer } from './server.js';
import { int, mb, ms } from './stats.js';

/**
 * Load: console clients (autocannon, one process) cycling through list,
 * count, detail and log calls as fast as their connections allow, and
 * simulated terminals (another process) each reporting a batch on a timer,
 * both at once for `seconds`, against the one server. This process (the
 * server, and PGlite when it is the database) samples its memory every
 * second; a full GC at the start, half way and at the end gives the heap it
 * actually retains, so growth is told apart from garbage not yet collected.
 */
export interface LoadOptions {
  seconds: number;
  connections: number;
  terminals: number;
  /** Each terminal sends one batch this often, holding one GPS record per second of it. */
  intervalMs: number;
}

interface KindResult {
  name: string;
  path: string;
  statuses: Record<string, number>;
  /** Requests of this kind built; those never answered timed out or were in flight at the end. */
  built: number;
  n: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
}
interface ConsoleResult {
  seconds: number;
  kinds: KindResult[];
  total: { n: number; p50: number; p95: number; p99: number; max: number };
  requests: number;
  sent: number;
  statusCodes: Record<string, number>;
  non2xx: number;
  errors: number;
  timeouts: number;
  resets: number;
  failures: string[];
  socketErrors: string[];
}
interface TerminalResult {
  accepted: number;
  acknowledged: number;
  unsent: number;
  errors: number;
  failures: string[];
  seconds: number;
  batches: number;
  p50: number;
  p99: number;
  max: number;
}

/** Retained heap after a forced GC may grow by this much over the run, and by this rate over its second half. */
const RETAINED_GROWTH_MB = 16;
const RETAINED_SLOPE_MB_MIN = 10;
/** The second half's RSS peak above the first half's (after the clients began). */
const RSS_GROWTH_MB = 20;

const MB = 1024 * 1024;
const gc = (globalThis as { gc?: () => void }).gc;
const sleep = (msec: number) => new Promise((r) => setTimeout(r, msec));

/** Least-squares slope of y over x (x in seconds) in MB per minute. */
function slopeMbPerMin(points: { t: number; v: number }[]) {
  if (points.length < 3) return NaN;
  const n = points.length;
  const mx = points.reduce((a, p) => a + p.t, 0) / n;
  const my = points.reduce((a, p) => a + p.v, 0) / n;
  let num = 0;
  let den = 0;
  for (const p of points) {
    num += (p.t - mx) * (p.v - my);
    den += (p.t - mx) ** 2;
  }
  return ((num / den) * 60) / MB;
}

/** Ids to ask for: a sample of live rows of each table, in a fixed order. */
async function sampleIds(bdb: BenchDb, table: string, column: string, n: number) {
  const rows = await bdb.raw<{ id: string }>(
    `SELECT ${column} AS id FROM ${table} WHERE NOT is_delete ORDER BY md5(${column}) LIMIT ${n}`,
  );
  return rows.map((r) => r.id);
}

const lists = [
  { name: 'vehicles', list: '/api/car_list', count: '/api/car_list_count', sortable: carSortColumns },
  { name: 'customers', list: '/api/user_list', count: '/api/user_list_count', sortable: carUserSortColumns },
  { name: 'terminals', list: '/api/device_list', count: '/api/device_list_count', sortable: deviceSortColumns },
  { name: 'accounts', list: '/api/account_list', count: '/api/account_list_count', sortable: accountSortColumns },
] as const;

/**
 * The calls of a console session: each list and its count (mostly the first
 * pages in the default order, one in five sorted by one of its columns, one
 * in ten searching a part of the id), the detail of a vehicle, customer,
 * terminal and account, and the GPS, battery and engine logs of vehicles
 * with telemetry for a window of their history (the busy vehicle now and then).
 */
async function consoleKinds(bdb: BenchDb, fleet: Fleet) {
  const r = rng(20261123);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(r() * xs.length)]!;
  const N = 200;
  const kinds: { name: string; path: string; bodies: string[] }[] = [];
  for (const l of lists) {
    const listBodies: string[] = [];
    const countBodies: string[] = [];
    for (let i = 0; i < N; i++) {
      const roll = r();
      const search =
        roll < 0.1 ? { search_item: '0', search_text: String(Math.floor(r() * 10_000)).padStart(4, '0') } : {};
      const sorts = roll >= 0.1 && roll < 0.3 ? { sorts: `${pick(l.sortable)} ${r() < 0.5 ? 'asc' : 'desc'}` } : {};
      listBodies.push(JSON.stringify({ ...search, ...sorts, offset: 20 * Math.floor(r() * 5), limit: 20 }));
      countBodies.push(JSON.stringify(search));
    }
    kinds.push({ name: `${l.name} list`, path: l.list, bodies: listBodies });
    kinds.push({ name: `${l.name} count`, path: l.count, bodies: countBodies });
  }
  const details = [
    { name: 'vehicle detail', path: '/api/car_get_detail', table: 'cars', column: 'car_id' },
    { name: 'customer detail', path: '/api/user_get_detail', table: 'car_users', column: 'user_id' },
    { name: 'terminal detail', path: '/api/device_get_detail', table: 'devices', column: 'car_device_id' },
    { name: 'account detail', path: '/api/account_get_detail', table: 'accounts', column: 'account_id' },
  ];
  for (const d of details) {
    const ids = await sampleIds(bdb, d.table, d.column, N);
    kinds.push({ name: d.name, path: d.path, bodies: ids.map((id) => JSON.stringify({ [d.column]: id })) });
  }
  const now = fleet.now.getTime();
  const span = fleet.size.days * 86_400_000;
  const vehicle = () =>
    r() < 0.05 ? fleet.busy.car_data_id : imei(1 + Math.floor(r() * fleet.size.telemetryVehicles));
  /** A window of `hours` inside the generated history, as the console's date filter sends it. */
  const window = (hours: number) => {
    const len = Math.min(span, hours * 3_600_000);
    const from = now - span + Math.floor(r() * (span - len + 1));
    return { from: new Date(from).toISOString(), to: new Date(from + len).toISOString() };
  };
  const logs = [
    { name: 'GPS log (3 h)', path: '/api/car_get_gps_log', body: () => ({ car_data_id: vehicle(), ...window(3) }) },
    {
      name: 'battery log (1 day)',
      path: '/api/car_get_battery_log',
      body: () => ({ car_data_id: vehicle(), ...window(24), limit: 100 }),
    },
    {
      name: 'engine log (7 days)',
      path: '/api/car_get_engine_log',
      body: () => ({ car_data_id: vehicle(), ...window(24 * 7) }),
    },
  ];
  for (const l of logs)
    kinds.push({ name: l.name, path: l.path, bodies: Array.from({ length: N }, () => JSON.stringify(l.body())) });
  return kinds;
}

export async function benchLoad(bdb: BenchDb, server: BenchServer, fleet: Fleet, report: Report, opts: LoadOptions) {
  const section = 'load';
  const kinds = await consoleKinds(bdb, fleet);
  // Five sessions, as a few people signed in; each call takes the next.
  const tokens = [server.token];
  for (let i = 1; i < 5; i++) tokens.push((await login(server.url)).token);
  // The first body of each kind once before the run (warms its code); one that fails is said here and stays in the mix.
  for (const k of kinds) {
    await call(server, k.path, JSON.parse(k.bodies[0]!)).catch((err: Error) =>
      report.note(`load: before the run, ${k.name}: ${err.message.slice(0, 300)}`),
    );
  }

  const recordsPerBatch = Math.round(opts.intervalMs / 1000);
  // Terminal t's batch b is due (t / terminals + b) × interval after the start; those due within the run make it.
  const batchesPerTerminal = Math.ceil((opts.seconds * 1000) / opts.intervalMs);
  let planned = 0;
  for (let t = 0; t < opts.terminals; t++)
    for (let b = 0; b < batchesPerTerminal; b++)
      if ((t / opts.terminals + b) * opts.intervalMs < opts.seconds * 1000) planned++;
  const plan: IngestPlan = {
    terminals: opts.terminals,
    batchesPerTerminal,
    recordsPerBatch,
    // One record per second up to now: batch b holds the b-th interval of the run.
    start: Date.now() - opts.intervalMs,
  };
  const ids = Array.from({ length: opts.terminals }, (_, t) => deviceId(t + 1));
  const offered = (opts.terminals * recordsPerBatch * 1000) / opts.intervalMs;

  const dir = mkdtempSync(path.join(tmpdir(), 'fleet-bench-load-'));
  const consoleArgs = path.join(dir, 'console.json');
  writeFileSync(
    consoleArgs,
    JSON.stringify({ url: server.url, tokens, connections: opts.connections, duration: opts.seconds, kinds }),
  );

  gc?.();
  await sleep(500);
  const load0 = os.loadavg();
  // How much CPU the server got, and how long its event loop made ready callbacks wait.
  const cpu0 = process.cpuUsage();
  const loopDelay = monitorEventLoopDelay({ resolution: 10 });
  loopDelay.enable();
  const base = process.memoryUsage();
  const started = performance.now();
  /** Seconds from `started` until the console clients began (their process takes a while to start). */
  let begun = NaN;
  const samples: { t: number; rss: number; heap: number }[] = [{ t: 0, rss: base.rss, heap: base.heapUsed }];
  let mid: number | undefined;
  const timer = setInterval(() => {
    const t = (performance.now() - started) / 1000;
    // Half way: what the heap retains then (a full GC, one pause of the server in the run).
    if (mid === undefined && t - begun >= opts.seconds / 2 && gc) {
      gc();
      mid = process.memoryUsage().heapUsed;
    }
    const m = process.memoryUsage();
    samples.push({ t, rss: m.rss, heap: m.heapUsed });
  }, 1000);
  let consoleRes: ConsoleResult;
  let terms: TerminalResult;
  try {
    [consoleRes, terms] = await Promise.all([
      runClient<ConsoleResult>('load.ts', { file: consoleArgs }, () => {
        begun = (performance.now() - started) / 1000;
      }),
      runClient<TerminalResult>('ingest.ts', {
        ...plan,
        url: server.url,
        ids,
        secret: TERMINAL_SECRET,
        // New numbers every run, also on a kept database (a seen seq is a resend and stores nothing).
        seqBase: Date.now() * 100,
        intervalMs: opts.intervalMs,
        untilMs: opts.seconds * 1000,
      }),
    ]);
  } finally {
    clearInterval(timer);
    rmSync(dir, { recursive: true, force: true });
  }
  const wall = (performance.now() - started) / 1000;
  loopDelay.disable();
  const cpu = process.cpuUsage(cpu0);
  const cpuSeconds = (cpu.user + cpu.system) / 1e6;
  const last = process.memoryUsage();
  await sleep(1000);
  gc?.();
  const end = process.memoryUsage();
  const load1 = os.loadavg();

  // Console clients.
  const rps = (n: number) => n / consoleRes.seconds;
  const bad = consoleRes.non2xx + consoleRes.errors + consoleRes.timeouts;
  const shape = `${opts.connections} clients, ${kinds.length} call kinds in turn, ${opts.seconds} s`;
  report.add({
    section,
    name: `console calls, all kinds (${shape})`,
    value: `${int(rps(consoleRes.total.n))} req/s, p50 ${ms(consoleRes.total.p50)} / p95 ${ms(consoleRes.total.p95)} / p99 ${ms(consoleRes.total.p99)} ms`,
    anchor: `${int(consoleRes.total.n)} answers, max ${ms(consoleRes.total.max)} ms; ${int(consoleRes.sent - consoleRes.total.n)} sent but unanswered when the run ended`,
    target: 'answers on every connection (no target for the rate here)',
    met: consoleRes.total.n >= opts.connections,
  });
  for (const k of consoleRes.kinds) {
    const other = Object.entries(k.statuses).filter(([s]) => s !== '200');
    report.add({
      section,
      name: `${k.name} (${k.path.replace('/api/', '')})`,
      value: `${int(rps(k.n))} req/s, p50 ${ms(k.p50)} / p95 ${ms(k.p95)} / p99 ${ms(k.p99)} ms`,
      anchor: `max ${ms(k.max)} ms; ${int(k.built - k.n)} unanswered${other.length ? `; ${other.map(([s, n]) => `${n}× HTTP ${s}`).join(', ')}` : ''}`,
    });
  }
  report.add({
    section,
    name: 'console errors: non-2xx answers, socket errors, timeouts (10 s)',
    value: `${consoleRes.non2xx} non-2xx, ${consoleRes.errors} socket errors, ${consoleRes.timeouts} timeouts`,
    anchor: `status codes ${JSON.stringify(consoleRes.statusCodes)}${consoleRes.resets ? `, ${consoleRes.resets} resets` : ''}`,
    target: '0',
    met: bad === 0,
  });
  for (const f of consoleRes.failures) report.note(`load: console answer ${f}`);
  for (const e of consoleRes.socketErrors) report.note(`load: console socket error ${e}`);

  // Terminals.
  const acknowledged = terms.acknowledged;
  report.add({
    section,
    name: `terminals: ${int(opts.terminals)} each sending ${recordsPerBatch} records every ${opts.intervalMs / 1000} s (${int(offered)} records/s offered)`,
    value: `${int(acknowledged)} of ${int(planned)} batches due acknowledged, ${terms.errors} failed, ${int(terms.unsent)} not sent in time; ${int(terms.accepted / terms.seconds)} records/s`,
    anchor: `receive-to-commit p50 ${ms(terms.p50)} / p99 ${ms(terms.p99)} / max ${ms(terms.max)} ms; ${int(terms.accepted)} records in ${terms.seconds.toFixed(1)} s`,
    target: 'every batch sent in time and acknowledged, 0 failed',
    met: terms.errors === 0 && acknowledged === planned,
  });
  for (const f of terms.failures) report.note(`load: terminal batch failed: ${f}`);

  report.add({
    section,
    name: `server process: CPU time and event loop delay over the run (${wall.toFixed(1)} s)`,
    value: `${cpuSeconds.toFixed(1)} s CPU (${((100 * cpuSeconds) / wall).toFixed(0)} % of one core)`,
    anchor: `event loop delay p50 ${ms(loopDelay.percentile(50) / 1e6)} / p99 ${ms(loopDelay.percentile(99) / 1e6)} / max ${ms(loopDelay.max / 1e6)} ms; load average ${load0[0]!.toFixed(1)} → ${os.loadavg()[0]!.toFixed(1)} on ${os.cpus().length} cores`,
  });

  // Server memory.
  const second = samples.filter((s) => s.t - begun >= opts.seconds / 2 && s.t - begun <= opts.seconds);
  const rssSlope = slopeMbPerMin(second.map((s) => ({ t: s.t, v: s.rss })));
  const peakRss = Math.max(...samples.map((s) => s.rss), last.rss);
  const peakHeap = Math.max(...samples.map((s) => s.heap), last.heapUsed);
  const retained = (end.heapUsed - base.heapUsed) / MB;
  const retainedSlope = mid !== undefined ? ((end.heapUsed - mid) / MB / (wall - begun - opts.seconds / 2)) * 60 : NaN;
  // RSS keeps no steady growth when the second half never rises far above the first half's peak (a sawtooth
  // and the dip of the half-way GC do not count, a leak does). Half of a short run is warm-up (first calls of
  // each kind, pools and sockets filling): RSS is judged on runs of 40 s and more.
  const first = samples.filter((s) => s.t - begun >= 0 && s.t - begun < opts.seconds / 2);
  const rssGrowth = (Math.max(...second.map((s) => s.rss)) - Math.max(...first.map((s) => s.rss))) / MB;
  const judgeRss = opts.seconds >= 40 && Number.isFinite(rssGrowth);
  const flat =
    gc !== undefined &&
    retained <= RETAINED_GROWTH_MB &&
    !(retainedSlope > RETAINED_SLOPE_MB_MIN) &&
    (!judgeRss || rssGrowth <= RSS_GROWTH_MB);
  const why = [
    retained > RETAINED_GROWTH_MB && 'retained heap grew',
    retainedSlope > RETAINED_SLOPE_MB_MIN && 'retained heap still growing',
    judgeRss && rssGrowth > RSS_GROWTH_MB && 'RSS still growing',
    !gc && 'no --expose-gc',
  ].filter(Boolean);
  report.add({
    section,
    name: `server memory (${bdb.kind === 'pglite' ? 'server and PGlite in one process' : 'server process'}), sampled every second`,
    value: flat ? 'flat' : `not flat (${why.join(', ')})`,
    anchor:
      `RSS start ${mb(base.rss)}, peak ${mb(peakRss)}, end ${mb(last.rss)}, second half ${slope(rssSlope)} (from the dip of the half-way GC), its peak ${Number.isFinite(rssGrowth) ? `${rssGrowth >= 0 ? '+' : ''}${rssGrowth.toFixed(1)} MB` : '—'} on the first half's; ` +
      `heap in use start ${mb(base.heapUsed)}, peak ${mb(peakHeap)}, end ${mb(last.heapUsed)}; ` +
      `heap after a full GC: start ${mb(base.heapUsed)}, half way ${mid !== undefined ? mb(mid) : '—'}, end ${mb(end.heapUsed)} (${retained >= 0 ? '+' : ''}${retained.toFixed(1)} MB, second half ${slope(retainedSlope)})`,
    target: `flat: heap after GC ≤ start + ${RETAINED_GROWTH_MB} MB, growing ≤ ${RETAINED_SLOPE_MB_MIN} MB/min in the second half; second half's RSS peak ≤ first half's + ${RSS_GROWTH_MB} MB${judgeRss ? '' : ' (not judged: run < 40 s)'}`,
    met: flat,
  });
  const every = Math.max(1, Math.round(opts.seconds / 12));
  report.note(
    `load: server RSS / heap in use every ${every} s (the console clients began ${begun.toFixed(1)} s in): ${samples
      .filter((s, i) => i % every === 0)
      .map((s) => `${(s.rss / MB).toFixed(0)}/${(s.heap / MB).toFixed(0)}`)
      .join(' ')} MB`,
  );
  report.note(
    `load: load average (1 min) ${load0[0]!.toFixed(1)} before, ${load1[0]!.toFixed(1)} after, on ${os.cpus().length} cores shared by the server, ${bdb.kind === 'postgres' ? 'PostgreSQL, ' : ''}both client processes and whatever else runs`,
  );
}

const slope = (v: number) => (Number.isFinite(v) ? `${v >= 0 ? '+' : ''}${v.toFixed(1)} MB/min` : '—');
