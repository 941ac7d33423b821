/**
 * Console clients of the load run, in a process of their own: autocannon
 * with `connections` keep-alive connections for `duration` seconds, each
 * cycling through the calls of the file argv[2] names (one request per call kind; each send
 * takes the kind's next body and a session token in turn). Prints, as one JSON
 * line, the answers per kind (count, status codes, p50/p95/p99/max of their
 * latency), the totals, socket errors and timeouts, and a few failed answers.
 */
import { readFileSync } from 'node:fs';
import autocannon, { type Request } from 'autocannon';

interface Kind {
  name: string;
  path: string;
  bodies: string[];
}
// The calls and their bodies are too long for a command line: argv[2] names a JSON file holding them.
const opts = JSON.parse(readFileSync((JSON.parse(process.argv[2]!) as { file: string }).file, 'utf8')) as {
  url: string;
  tokens: string[];
  connections: number;
  duration: number;
  kinds: Kind[];
};

const latencies = new Map<string, number[]>(opts.kinds.map((k) => [k.name, []]));
/** Requests built per kind: those never answered timed out (10 s) or were in flight when the run ended. */
const built = new Map<string, number>(opts.kinds.map((k) => [k.name, 0]));
const statuses = new Map<string, Record<string, number>>(opts.kinds.map((k) => [k.name, {}]));
const failures: string[] = [];
const socketErrors: string[] = [];
/** The kind of the answer autocannon reports next: its onResponse runs just before its `response` event. */
let answered = '';
let sent = 0;

const requests: Request[] = opts.kinds.map((k) => {
  let next = 0;
  return {
    method: 'POST',
    path: k.path,
    headers: { 'content-type': 'application/json' },
    setupRequest: (req) => {
      const i = next++;
      sent++;
      built.set(k.name, built.get(k.name)! + 1);
      return {
        ...req,
        body: k.bodies[i % k.bodies.length]!,
        headers: { ...req.headers, authorization: `Bearer ${opts.tokens[sent % opts.tokens.length]!}` },
      };
    },
    onResponse: (status, body) => {
      answered = k.name;
      const s = statuses.get(k.name)!;
      s[status] = (s[status] ?? 0) + 1;
      if ((status < 200 || status > 299) && failures.length < 10)
        failures.push(`${k.name} ${status} ${body.slice(0, 200)}`);
    },
  };
});

// Tells the bench when the load begins (starting this process takes seconds on a busy machine).
console.log('# started');
const instance = autocannon({
  url: opts.url,
  connections: opts.connections,
  duration: opts.duration,
  timeout: 10,
  requests,
});
instance.on('response', (_client: unknown, _status: number, _bytes: number, ms: number) => {
  latencies.get(answered)?.push(ms);
});
instance.on('reqError', (err: Error) => {
  if (socketErrors.length < 10) socketErrors.push(String(err.message ?? err));
});
const result = await instance;

const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? NaN;
const summary = (ms: number[]) => {
  const s = [...ms].sort((a, b) => a - b);
  return { n: s.length, p50: pct(s, 50), p95: pct(s, 95), p99: pct(s, 99), max: s.at(-1) ?? NaN };
};
const all: number[] = [];
for (const l of latencies.values()) for (const v of l) all.push(v);
console.log(
  JSON.stringify({
    seconds: opts.duration,
    kinds: opts.kinds.map((k) => ({
      name: k.name,
      path: k.path,
      statuses: statuses.get(k.name),
      built: built.get(k.name),
      ...summary(latencies.get(k.name)!),
    })),
    total: summary(all),
    requests: result.requests.total,
    sent: result.requests.sent,
    statusCodes: Object.fromEntries(Object.entries(result.statusCodeStats).map(([code, v]) => [code, v.count])),
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    resets: result.resets,
    failures,
    socketErrors,
  }),
);
