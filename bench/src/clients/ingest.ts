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
 * unsent. With rounds, the batches are sent a round at a time on the same
 * keep-alive connections, each round started by a line 'go' from the bench (the bench
 * times something else between them).
 */
import { createInterface } from 'node:readline';
import { batchRecords, type IngestPlan } from '../ingest-records.js';
import { postRequest, RawConnection } from './raw-http.js';

const opts = JSON.parse(process.argv[2]!) as IngestPlan & {
  url: string;
  ids: string[];
  secret: string;
  seqBase: number;
  intervalMs?: number;
  /** A bounded run: no batch is started this long after the start (those in flight are answered). */
  untilMs?: number;
  /** The batches in rounds (back to back only): batch numbers first … first + count − 1 each. */
  rounds?: { first: number; count: number }[];
  /**
   * Each terminal first sends this many batches of its own (batch numbers −warmup … −1) that are not counted:
   * the server's code compiled and optimised and the connections open, as in service, before anything is timed.
   */
  warmup?: number;
};
const url = new URL(`${opts.url}/device/v1/batch`);
// One connection a terminal, kept between rounds (the raw INSERT's turn in between), each request a prebuilt
// buffer (raw-http.ts): the client's share of the two cores stays small.
const connections = opts.ids.map(() => new RawConnection(url.hostname, Number(url.port)));
const request = (auth: string, body: string) => postRequest(url.host, url.pathname, { authorization: auth }, body);

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
const requests = opts.ids.map((_, t) =>
  Array.from({ length: opts.batchesPerTerminal }, (_, b) =>
    request(auths[t]!, JSON.stringify({ seq: opts.seqBase + b, records: batchRecords(opts, t, b) })),
  ),
);
if (opts.warmup) {
  // Batches −warmup … −1 of each terminal, back to back, before the timed rounds.
  const count = opts.warmup;
  const warm = opts.ids.map((_, t) =>
    Array.from({ length: count }, (_, k) =>
      request(auths[t]!, JSON.stringify({ seq: opts.seqBase - count + k, records: batchRecords(opts, t, k - count) })),
    ),
  );
  await Promise.all(
    opts.ids.map(async (_, t) => {
      for (const body of warm[t]!) {
        const res = await connections[t]!.request(body);
        if (res.status !== 200) throw new Error(`warm-up batch answered ${res.status} ${res.text}`);
      }
    }),
  );
}
const rounds = opts.rounds ?? [{ first: 0, count: opts.batchesPerTerminal }];
// Read only when there is a round to wait for.
const lines = rounds.length > 1 ? createInterface({ input: process.stdin })[Symbol.asyncIterator]() : undefined;
const seconds: number[] = [];
for (const [r, round] of rounds.entries()) {
  if (r > 0 && (await lines!.next()).value !== 'go') throw new Error('the bench did not say go');
  // Lines starting with '#' are told to the bench as they come (child.ts): where the sending starts and ends.
  console.log('# sending');
  const started = performance.now();
  await Promise.all(opts.ids.map((_, t) => send(t, round, started)));
  seconds.push((performance.now() - started) / 1000);
  console.log('# sent');
}
if (lines) {
  await lines.return?.();
  process.stdin.destroy(); // else the open pipe keeps this process alive
}

/** A terminal's batches of one round, back to back or on its timer. */
async function send(t: number, round: { first: number; count: number }, started: number) {
  // When this terminal's previous answer came (it sends one batch at a time).
  let free = started;
  for (let k = 0; k < round.count; k++) {
    const b = round.first + k;
    if (opts.intervalMs) {
      const due = started + (t / opts.ids.length + k) * opts.intervalMs;
      // A bounded run: batches due after its end are not part of it.
      if (opts.untilMs !== undefined && due >= started + opts.untilMs) break;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    }
    // Due within the run, but the terminal was still waiting for an earlier answer when it ended. (A timer of
    // this process firing a few ms late is not that: the batch was due in the run and the terminal was free.)
    if (opts.untilMs !== undefined && free - started >= opts.untilMs) {
      unsent++;
      continue;
    }
    const t0 = performance.now();
    try {
      const res = await connections[t]!.request(requests[t]![b]!);
      latencies.push(performance.now() - t0);
      if (res.status !== 200) fail(`${res.status} ${res.text}`);
      else {
        const answer = JSON.parse(res.text) as { accepted: number; duplicate: boolean };
        // A seq the server had seen is a resend: it stores nothing and repeats its first answer, so it
        // must not count as records written (a kept database holds the seqs of earlier runs).
        if (answer.duplicate) fail(`seq ${opts.seqBase + b} answered as a resend: nothing stored`);
        else {
          acknowledged++;
          accepted += answer.accepted;
        }
      }
    } catch (err) {
      fail(String(err));
    }
    free = performance.now();
  }
}
latencies.sort((a, b) => a - b);
const p = (q: number) => latencies[Math.min(latencies.length - 1, Math.ceil(q * latencies.length) - 1)] ?? NaN;
for (const c of connections) c.close();
console.log(
  JSON.stringify({
    accepted,
    acknowledged,
    unsent,
    errors,
    failures,
    seconds: seconds.reduce((a, b) => a + b, 0),
    batches: latencies.length,
    p50: p(0.5),
    p99: p(0.99),
    max: latencies.at(-1),
  }),
);
