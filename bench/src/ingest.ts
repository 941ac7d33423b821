import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { from as copyFrom } from 'pg-copy-streams';
import { runClient, type ClientInput } from './child.js';
import { combineShares, cpuShare, describeShare, type CpuShare } from './cpu-share.js';
import { anchorPool, type BenchDb } from './db.js';
import { deviceId, imei, TERMINAL_SECRET } from './generate.js';
import { batchRecords, type BenchRecord, type IngestPlan } from './ingest-records.js';
import { Report, type Figure } from './report.js';
import type { BenchServer } from './server.js';
import { int, ms } from './stats.js';

/**
 * §2 Ingest through the gateway from many terminals at once (a client
 * process of its own), beside the same records written straight to the
 * database batch by batch, 10 at a time (the app's pool size): by multi-row
 * INSERTs (the anchor of the target) and, on PostgreSQL, by COPY.
 */
const gpsColumns = ['car_data_id', 'recorded_at', 'lat', 'lng', 'speed', 'heading', 'satellites', 'accuracy'] as const;
const batteryColumns = ['car_data_id', 'recorded_at', 'voltage', 'percentage'] as const;

function valuesInsert(table: string, columns: readonly string[], rows: unknown[][]) {
  const params: unknown[] = [];
  const tuples = rows.map((r) => `(${r.map((v) => (params.push(v), `$${params.length}`)).join(', ')})`);
  return { text: `INSERT INTO ${table} (${columns.join(', ')}) VALUES ${tuples.join(', ')}`, params };
}

type Write = (table: string, columns: readonly string[], rows: unknown[][]) => Promise<void>;

/** Multi-row `INSERT … VALUES` of one batch's rows of one table. */
const insertWrite =
  (bdb: BenchDb): Write =>
  async (table, columns, rows) => {
    const v = valuesInsert(table, columns, rows);
    await bdb.raw(v.text, v.params);
  };

/** `COPY … FROM STDIN` (text format) of one batch's rows of one table, on a pool of its own (PostgreSQL only). */
function copyWrite(url: string, size: number): { write: Write; end(): Promise<void> } {
  const pool = anchorPool(url, size);
  const write: Write = async (table, columns, rows) => {
    const client = await pool.connect();
    try {
      const stream = client.query(copyFrom(`COPY ${table} (${columns.join(', ')}) FROM STDIN`));
      await new Promise<void>((resolve, reject) => {
        stream.on('finish', resolve);
        stream.on('error', reject);
        stream.end(`${rows.map((r) => r.map((v) => (v === null ? '\\N' : String(v))).join('\t')).join('\n')}\n`);
      });
    } finally {
      client.release();
    }
  };
  return { write, end: () => pool.end() };
}

/**
 * The records of §2 written straight to the database batch by batch, `concurrency` at a time: seconds taken
 * and the cores used meanwhile. Each batch's rows are made before the clock starts, as the gateway's client
 * makes its bodies.
 */
async function rawWrite(
  plan: IngestPlan,
  concurrency: number,
  write: Write,
  batches = { first: 0, count: plan.batchesPerTerminal },
) {
  const jobs: (() => Promise<void>)[] = [];
  for (let t = 0; t < plan.terminals; t++) {
    const id = imei(t + 1);
    for (let b = batches.first; b < batches.first + batches.count; b++) {
      const records = batchRecords(plan, t, b);
      const gps = records
        .filter((r): r is Extract<BenchRecord, { type: 'gps' }> => r.type === 'gps')
        .map((r) => [id, r.time, r.lat, r.lng, r.speed, r.heading, r.satellites, r.accuracy]);
      const battery = records
        .filter((r): r is Extract<BenchRecord, { type: 'battery' }> => r.type === 'battery')
        .map((r) => [id, r.time, r.voltage, r.percentage]);
      jobs.push(async () => {
        await write('gps_logs', gpsColumns, gps);
        if (battery.length) await write('battery_logs', batteryColumns, battery);
      });
    }
  }
  const cpu = cpuShare();
  const started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < jobs.length) await jobs[next++]!();
    }),
  );
  return { seconds: (performance.now() - started) / 1000, share: cpu() };
}

/**
 * BENCH_INGEST_PROFILE=<file prefix>: a CPU profile of this process (the server) during each of the gateway's
 * timed turns, written to <prefix>-<turn>.cpuprofile (the raw anchors run between the turns, not in them).
 */
function serverProfile(prefix: string | undefined) {
  if (!prefix) return undefined;
  const session = new Session();
  session.connect();
  let started: Promise<unknown> = Promise.resolve();
  return {
    start() {
      started = session
        .post('Profiler.enable')
        .then(() => session.post('Profiler.setSamplingInterval', { interval: 100 }))
        .then(() => session.post('Profiler.start'));
    },
    stop(turn: number) {
      void started
        .then(() => session.post('Profiler.stop'))
        .then(({ profile }) => writeFileSync(`${prefix}-${turn}.cpuprofile`, JSON.stringify(profile)));
    },
  };
}

type IngestResult = {
  accepted: number;
  errors: number;
  failures: string[];
  seconds: number;
  p50: number;
  p99: number;
  max: number;
};

export interface IngestOptions {
  terminals: number;
  batchesPerTerminal: number;
  recordsPerBatch: number;
  /** Batches per terminal of the paced run, at the target rate. */
  pacedBatches: number;
  /**
   * Untimed batches per terminal before the timed turns, so that what is timed is the server in service: its
   * code compiled and optimised, not still being compiled (README, "Status on 27 November, 20:30 UTC").
   */
  warmupBatches: number;
}

/** Offered load of the paced run: the target, 20,000 records/s. */
const TARGET_RATE = 20_000;

export async function benchIngest(bdb: BenchDb, server: BenchServer, report: Report, opts: IngestOptions) {
  const records = opts.terminals * opts.batchesPerTerminal * opts.recordsPerBatch;
  const plan: IngestPlan = {
    ...opts,
    start: Date.now() - (opts.batchesPerTerminal * opts.recordsPerBatch + 60) * 1000,
  };
  const ids = Array.from({ length: opts.terminals }, (_, t) => deviceId(t + 1));
  // New seqs every run, also on a kept database (--reuse): a seq the server has seen is a resend, which
  // stores nothing; the client counts such an answer as a failure. Room for the warm-up's seqs below runSeq.
  const runSeq = Date.now() * 100;
  const onPg = bdb.kind === 'postgres';
  // After untimed warm-up batches (clients/ingest.ts), the gateway and the raw INSERT in turns,
  // half the batches each time (gateway, INSERT, gateway, INSERT): this machine's speed moves by a third
  // within a minute, and turns weigh that on both alike.
  const halves =
    opts.batchesPerTerminal >= 2
      ? [
          { first: 0, count: Math.floor(opts.batchesPerTerminal / 2) },
          {
            first: Math.floor(opts.batchesPerTerminal / 2),
            count: opts.batchesPerTerminal - Math.floor(opts.batchesPerTerminal / 2),
          },
        ]
      : [{ first: 0, count: opts.batchesPerTerminal }];
  const gatewayShares: CpuShare[] = [];
  const rawShares: CpuShare[] = [];
  let rawSeconds = 0;
  const rawRound = async (half: { first: number; count: number }) => {
    const raw = await rawWrite(plan, onPg ? 10 : 1, insertWrite(bdb), half);
    rawSeconds += raw.seconds;
    if (raw.share) rawShares.push(raw.share);
  };
  // The cores used while the client sends (its own start-up left out), told by its '#' lines; after each
  // round but the last the raw INSERT's turn, then the client is told to go on (on the same connections).
  let gatewayCpu: (() => CpuShare | undefined) | undefined;
  let sent = 0;
  let between = Promise.resolve();
  const profile = serverProfile(process.env.BENCH_INGEST_PROFILE);
  const phase = (line: string, input: ClientInput) => {
    if (line === '# sending') {
      gatewayCpu = cpuShare();
      profile?.start();
    } else if (line === '# sent') {
      profile?.stop(sent);
      const share = gatewayCpu?.();
      if (share) gatewayShares.push(share);
      const half = halves[sent++]!;
      if (sent < halves.length) {
        // A failed turn ends the client's input: it stops (and runClient says so) instead of waiting.
        between = between
          .then(() => rawRound(half))
          .then(
            () => input.say('go'),
            (err: unknown) => {
              input.end();
              throw err;
            },
          );
        between.catch(() => undefined); // awaited below
      }
    }
  };
  const g = await runClient<IngestResult>(
    'ingest.ts',
    {
      ...plan,
      rounds: halves,
      warmup: opts.warmupBatches,
      url: server.url,
      ids,
      secret: TERMINAL_SECRET,
      seqBase: runSeq,
    },
    phase,
  );
  await between;
  // The last turn once the client has gone (its connections closed).
  await rawRound(halves.at(-1)!);
  const gatewayShare = gatewayShares.length === halves.length ? combineShares(gatewayShares) : undefined;
  const rawShare = rawShares.length === halves.length ? combineShares(rawShares) : undefined;
  // Terminals on a timer, together offering the target rate: the latency a terminal sees in service.
  const intervalMs = (opts.terminals * opts.recordsPerBatch * 1000) / TARGET_RATE;
  const pacedPlan: IngestPlan = {
    ...opts,
    batchesPerTerminal: opts.pacedBatches,
    start: Date.now() - (opts.pacedBatches * opts.recordsPerBatch + 60) * 1000,
  };
  const paced = await runClient<IngestResult>('ingest.ts', {
    ...pacedPlan,
    url: server.url,
    ids,
    secret: TERMINAL_SECRET,
    seqBase: runSeq + 1_000_000,
    intervalMs,
  });
  const gatewayRate = g.accepted / g.seconds;
  const rawRate = records / rawSeconds;
  // The fastest way in PostgreSQL has: the same records by COPY, batch by batch, 10 at a time.
  let copyRate: number | undefined;
  if (onPg && bdb.url) {
    const copy = copyWrite(bdb.url, 10);
    try {
      copyRate = records / (await rawWrite({ ...plan, start: plan.start - 86_400_000 }, 10, copy.write)).seconds;
    } finally {
      await copy.end();
    }
  }
  const shape = `${opts.terminals} terminals × ${opts.batchesPerTerminal} batches × ${opts.recordsPerBatch} records`;
  report.add({
    section: '2 ingest',
    name: `gateway records/s committed (${shape})`,
    value: `${int(gatewayRate)} records/s (${int(g.accepted)} of ${int(records)} accepted, ${g.errors} errors)`,
    anchor: `raw multi-row INSERT ${int(rawRate)} records/s${copyRate === undefined ? '' : `; raw COPY ${int(copyRate)} records/s (${(gatewayRate / copyRate).toFixed(2)}× COPY)`}`,
    ratio: `${(gatewayRate / rawRate).toFixed(2)}×`,
    target: onPg ? '≥ 20,000 records/s and ≥ 1.0× raw INSERT' : '(PostgreSQL only)',
    met: onPg ? gatewayRate >= 20_000 && gatewayRate / rawRate >= 1 && g.errors === 0 : undefined,
  });
  report.add({
    section: '2 ingest',
    name: `receive-to-commit per batch, terminals sending back to back (${opts.terminals} in flight: queueing)`,
    value: `p50 ${ms(g.p50)} / p99 ${ms(g.p99)} / max ${ms(g.max)} ms`,
  });
  // Where the cores went in each: the gateway's limit is whichever process is at one core.
  if (gatewayShare && rawShare) {
    report.add({
      section: '2 ingest',
      name: 'cores used while the terminals sent back to back (bench process = the server)',
      value: describeShare(gatewayShare, 'server', 'the rest (the client)', { n: g.accepted, name: 'record' }),
      anchor: `raw INSERT: ${describeShare(rawShare, 'bench', 'the rest', { n: records, name: 'record' })}`,
    });
  }
  for (const f of [...g.failures, ...paced.failures]) report.note(`ingest failure: ${f}`);
  const pacedRate = paced.accepted / paced.seconds;
  report.add({
    section: '2 ingest',
    name: `receive-to-commit per batch, ${opts.terminals} terminals each sending ${opts.recordsPerBatch} records every ${(intervalMs / 1000).toFixed(1)} s (${int(TARGET_RATE)} records/s offered)`,
    value: `p50 ${ms(paced.p50)} / p99 ${ms(paced.p99)} / max ${ms(paced.max)} ms`,
    anchor: `${int(pacedRate)} records/s committed, ${paced.errors} errors`,
    target: onPg ? 'p99 ≤ 1 s' : '(PostgreSQL only)',
    met: onPg ? paced.p99 <= 1000 && paced.errors === 0 : undefined,
  });
}

/** `report`, its figures moved to `section` and named with `label` after their own name. */
export function relabelled(report: Report, section: string, label: string): Report {
  return new (class extends Report {
    override add(f: Figure) {
      report.add({ ...f, section, name: `${f.name}, ${label}` });
    }
    override note(text: string) {
      report.note(text);
    }
  })();
}

/**
 * The ingest section's measurement while a job runs back to back beside it (`step`, then a 200 ms pause,
 * until the ingest is done), its figures named with `label`: what a job that every instance runs costs
 * the terminals.
 */
export async function benchIngestBeside(
  bdb: BenchDb,
  server: BenchServer,
  report: Report,
  opts: { section: string; label: string; ingest: IngestOptions; step: () => Promise<void> },
) {
  let running = true;
  const job = (async () => {
    while (running) {
      await opts.step();
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  })();
  try {
    await benchIngest(bdb, server, relabelled(report, opts.section, opts.label), opts.ingest);
  } finally {
    running = false;
    await job;
  }
}
