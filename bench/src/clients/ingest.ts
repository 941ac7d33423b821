/**
 * Simulated terminals in a process of their own, each over its own keep-alive
 * connection, a new seq per batch. Without intervalMs each terminal sends its
 * batches back to back (the gateway's ceiling); with it, terminal t sends
 * batch b at t/terminals × interval + b × interval (evenly spread, as real
 * terminals report on a timer). Prints records accepted, wall time and the
 * latency of each batch (sent to answered = received to committed, since the
 * gateway answers after the commit). With untilMs (a bounded run), batches
 * due after that time are not sent, and those due before it that a terminal
 * could not send in time (still waiting for an earlier answer) are counted as
 * unsent.
 */
import { Client } from 'undici';
import { batchRecords, type IngestPlan } from '../ingest-records.js';

const opts = JSON.parse(process.argv[2]!) as IngestPlan & {
  url: string;
  ids: string[];
  secret: string;
  seqBase: number;
  intervalMs?: number;
  /** A bounded run: no batch is started this long after the start (those in flight are answered). */
  untilMs?: number;
};
const path = '/device/v1/batch';

/**
 * One keep-alive connection a terminal, through undici: this process shares the server's cores on the
 * bench machine, and undici used less of them than node:http's client (the phase's "rest": 0.22-0.26 of
 * a core against 0.31-0.32, 27 November).
 */
async function post(client: Client, auth: string, body: string): Promise<{ status: number; text: string }> {
  const res = await client.request({
    path,
    method: 'POST',
    headers: { authorization: auth, 'content-type': 'application/json' },
    body,
  });
  return { status: res.statusCode, text: await res.body.text() };
}

const latencies: number[] = [];
let accepted = 0;
/** Batches answered 200; batches not sent before untilMs. */
let acknowledged = 0;
let unsent = 0;
let errors = 0;
/** The first few failures, to say what they were. */
const failures: string[] = [];
const fail = (what: string) => {
  errors++;
  if (failures.length < 5) failures.push(what.slice(0, 200));
};
// Each terminal's bodies are made before the clock starts: making a terminal's records is not the
// gateway's work (the raw anchors in ingest.ts make their rows before theirs too), and on this machine
// the client shares the server's cores.
const auths = opts.ids.map((id) => `Basic ${Buffer.from(`${id}:${opts.secret}`).toString('base64')}`);
const clients = opts.ids.map(() => new Client(opts.url, { pipelining: 1, keepAliveTimeout: 60_000 }));
const bodies = opts.ids.map((_, t) =>
  Array.from({ length: opts.batchesPerTerminal }, (_, b) =>
    JSON.stringify({ seq: opts.seqBase + b, records: batchRecords(opts, t, b) }),
  ),
);
// Lines starting with '#' are told to the bench as they come (child.ts): where the sending starts and ends.
console.log('# sending');
const started = performance.now();
await Promise.all(
  opts.ids.map(async (_, t) => {
    const auth = auths[t]!;
    const client = clients[t]!;
    for (let b = 0; b < opts.batchesPerTerminal; b++) {
      if (opts.intervalMs) {
        const due = started + (t / opts.ids.length + b) * opts.intervalMs;
        // A bounded run: batches due after its end are not part of it.
        if (opts.untilMs !== undefined && due >= started + opts.untilMs) break;
        const wait = due - performance.now();
        if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      }
      if (opts.untilMs !== undefined && performance.now() - started >= opts.untilMs) {
        // Due within the run, but the terminal was still waiting for an earlier answer when it ended.
        unsent++;
        continue;
      }
      const body = bodies[t]![b]!;
      const t0 = performance.now();
      try {
        const res = await post(client, auth, body);
        latencies.push(performance.now() - t0);
        if (res.status !== 200) fail(`${res.status} ${res.text}`);
        else {
          acknowledged++;
          accepted += (JSON.parse(res.text) as { accepted: number }).accepted;
        }
      } catch (err) {
        fail(String(err));
      }
    }
  }),
);
const seconds = (performance.now() - started) / 1000;
console.log('# sent');
latencies.sort((a, b) => a - b);
const p = (q: number) => latencies[Math.min(latencies.length - 1, Math.ceil(q * latencies.length) - 1)] ?? NaN;
await Promise.all(clients.map((c) => c.close()));
console.log(
  JSON.stringify({
    accepted,
    acknowledged,
    unsent,
    errors,
    failures,
    seconds,
    batches: latencies.length,
    p50: p(0.5),
    p99: p(0.99),
    max: latencies.at(-1),
  }),
);
