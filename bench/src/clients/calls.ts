/**
 * The list section's client (issue #19): a process of its own, so the client's
 * work never shares the server's event loop. One keep-alive connection
 * (node:http Agent, one socket), the calls one after the other; each case is
 * timed from writing the request to the last byte of the answer.
 * argv[2]: { url, token, runs, budgetMs, turns?, cases: [{ path, body }] }; prints one
 * JSON line: per case { p50, p95, p99, max, n, bytes } in ms. With `turns`, after each
 * case it prints '# done <index>' and waits for a line 'go' (the bench times the case's
 * SQL meanwhile, so a case and its anchor run seconds apart, not minutes).
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
  turns?: boolean;
  cases: { path: string; body: string }[];
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

const out: (Sample & { bytes: number })[] = [];
// Passes over every case first, so the cases timed first do not pay alone for the server's code still being
// compiled and optimised (its JIT, which takes thousands of calls) and for each connection's first plans; then
// each case's own warm-up, past the sixth execution, where PostgreSQL settles a prepared statement's plan
// (apps/server/src/db/prepared.ts).
for (let pass = 0; pass < 20; pass++) for (const c of opts.cases) await once(c.path, c.body);
for (const [index, c] of opts.cases.entries()) {
  let bytes = 0;
  for (let i = 0; i < (opts.warmup ?? 10); i++) bytes = await once(c.path, c.body);
  const times: number[] = [];
  const deadline = performance.now() + opts.budgetMs;
  while (times.length < opts.runs && (times.length < 5 || performance.now() < deadline)) {
    const t = performance.now();
    await once(c.path, c.body);
    times.push(performance.now() - t);
  }
  out.push({ ...summarize(times), bytes });
  if (lines) {
    console.log(`# done ${index}`);
    if ((await lines.next()).value !== 'go') throw new Error('the bench did not say go');
  }
}
agent.destroy();
process.stdin.destroy(); // else an open pipe keeps this process alive
console.log(JSON.stringify(out));
