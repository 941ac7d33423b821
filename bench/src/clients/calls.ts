/**
 * The list section's client (issue #19): a process of its own, so the client's
 * work never shares the server's event loop. One keep-alive connection
 * (node:http Agent, one socket), the calls one after the other; each case is
 * timed from writing the request to the last byte of the answer.
 * argv[2]: { url, token, runs, budgetMs, turns?, cases: [{ path, body, paired? }] }; prints one
 * JSON line: per case { p50, p95, p99, max, n, bytes } in ms. With `turns`, a `paired` case is timed in
 * turns with its SQL anchor, which the bench times while this client waits: after the case's warm-up it
 * prints '# warm <index>' (the bench warms the anchor), then after each block of `turns` calls
 * '# turn <index>' (the bench times a block of replays of the case's statements), waiting each time for a
 * line 'go'. So a machine whose speed moves weighs on the calls and their anchor alike, a block apart;
 * each block's first call, which follows the other side's block idle, is not timed (on either side), so
 * both are timed back to back, as autocannon at one connection times.
 */
import http from 'node:http';
import { createInterface } from 'node:readline';
import { summarize, type Sample } from '../stats.js';

const opts = JSON.parse(process.argv[2]!) as {
  url: string;
  token: string;
  runs: number;
  budgetMs: number;
  warmup?: number;
  /** Timed calls of a paired case between two blocks of its anchor's replays (the bench replays as many). */
  turns?: number;
  cases: { path: string; body: string; paired?: boolean }[];
};
const lines = opts.turns ? createInterface({ input: process.stdin })[Symbol.asyncIterator]() : undefined;

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
const base = new URL(opts.url);

function once(path: string, body: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        agent,
        host: base.hostname,
        port: base.port,
        path,
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          authorization: `Bearer ${opts.token}`,
        },
      },
      (res) => {
        let bytes = 0;
        res.on('data', (d: Buffer) => (bytes += d.length));
        res.on('end', () =>
          res.statusCode === 200 ? resolve(bytes) : reject(new Error(`${path} answered ${res.statusCode}`)),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** Tells the bench `what` for case `index` and waits for its 'go'. */
async function turn(what: 'warm' | 'turn', index: number) {
  console.log(`# ${what} ${index}`);
  if (!lines || (await lines.next()).value !== 'go') throw new Error('the bench did not say go');
}

const out: (Sample & { bytes: number })[] = [];
// Passes over every case first, so the cases timed first do not pay alone for the server's code still being
// compiled and optimised (its JIT, which takes thousands of calls) and for each connection's first plans; then
// each case's own warm-up, past the sixth execution, where PostgreSQL settles a prepared statement's plan
// (apps/server/src/db/prepared.ts).
for (let pass = 0; pass < 20; pass++) for (const c of opts.cases) await once(c.path, c.body);
for (const [index, c] of opts.cases.entries()) {
  const block = c.paired ? (opts.turns ?? 0) : 0;
  const paired = block > 0;
  let bytes = 0;
  for (let i = 0; i < (opts.warmup ?? 10); i++) bytes = await once(c.path, c.body);
  if (paired) await turn('warm', index);
  const times: number[] = [];
  const deadline = performance.now() + opts.budgetMs;
  while (times.length < opts.runs && (times.length < 5 || performance.now() < deadline)) {
    if (paired) await once(c.path, c.body); // the block's first call, after the anchor's block
    for (let n = 0; n < Math.max(block, 1); n++) {
      const t = performance.now();
      await once(c.path, c.body);
      times.push(performance.now() - t);
    }
    if (paired) await turn('turn', index);
  }
  out.push({ ...summarize(times), bytes });
}
agent.destroy();
process.stdin.destroy(); // else an open pipe keeps this process alive
console.log(JSON.stringify(out));
