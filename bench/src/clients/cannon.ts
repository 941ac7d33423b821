/**
 * A separate process for load, so the client never shares the server's
 * event loop: runs autocannon with the JSON options of argv[2] and prints
 * the figures the bench reports as one JSON line.
 */
import autocannon from 'autocannon';

const opts = JSON.parse(process.argv[2]!) as {
  url: string;
  body: string;
  token: string;
  connections: number;
  duration: number;
};
const result = await autocannon({
  url: opts.url,
  method: 'POST',
  connections: opts.connections,
  duration: opts.duration,
  headers: { 'content-type': 'application/json', authorization: `Bearer ${opts.token}` },
  body: opts.body,
});
console.log(
  JSON.stringify({
    rps: result.requests.average,
    total: result.requests.total,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts + result.non2xx,
  }),
);
