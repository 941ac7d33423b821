import { timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';
import { LIVE_PATH, errorMessages, type ApiError } from '@fleet/contract';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { Config } from '../config.js';
import { poolOf } from '../db/database.js';
import type { AppContext } from '../http/context.js';
import { MAIL_MAX_ATTEMPTS } from '../mail/mail-policy.js';
import { gatewayCommits, type GatewayCommit } from './instruments.js';
import { buildInfo } from './version.js';

export const METRICS_PATH = '/metrics';

/** reserved_commands.state of a command not yet finished, by name (docs/engine-control.md). */
const OPEN_COMMAND_STATES: Record<number, string> = { 0: 'wait', 1: 'execWait', 2: 'resultWait' };

/**
 * GET /metrics in Prometheus' text format, one registry per app: HTTP requests by route and status
 * with latency, the gateway's ingest and group commits, live-stream clients, open commands by
 * state, the mail outbox, the database pool, and Node's own (event loop, heap, GC, process). The
 * database figures are read when scraped, so every instance reports the shared queues the same way.
 */
export function registerMetrics(app: FastifyInstance, ctx: AppContext) {
  const exposure = metricsExposure(ctx.config);
  if (exposure === 'off') {
    // Production without a port of their own or a token: the figures name routes and count commands.
    app.log.warn('metrics are off: set METRICS_PORT (a port of their own) or METRICS_TOKEN (a bearer token)');
    return;
  }
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  // The usual Prometheus idiom: a constant 1 whose labels say what runs (joined onto other series by instance).
  const build = buildInfo();
  new Gauge({
    name: 'fleet_build_info',
    help: 'The version and the commit this server was built from (value 1)',
    labelNames: ['version', 'commit'],
    registers: [registry],
  }).set({ version: build.version, commit: build.commit ?? 'unknown' }, 1);
  const labelNames = ['method', 'route', 'status_code'] as const;
  const requests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests answered',
    labelNames,
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time to answer an HTTP request',
    labelNames,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  // Callback hooks, not async ones: every request runs them, a terminal's batch too, and an async hook costs a
  // promise per request on the gateway's hot path.
  app.addHook('onResponse', (request, reply, done) => {
    // Unmatched URLs share one label: a scanner must not grow the series without bound.
    const labels = {
      method: request.method,
      route: request.routeOptions.url ?? 'unmatched',
      status_code: String(reply.statusCode),
    };
    requests.inc(labels);
    latency.observe(labels, reply.elapsedTime / 1000);
    done();
  });

  const liveClients = new Gauge({
    name: 'fleet_live_clients',
    help: 'Open live streams (server-sent events)',
    registers: [registry],
  });
  app.addHook('onRequest', (request, reply, done) => {
    if (request.routeOptions.url === LIVE_PATH) {
      liveClients.inc();
      reply.raw.once('close', () => liveClients.dec());
    }
    done();
  });

  const batches = new Counter({
    name: 'fleet_ingest_batches_total',
    help: 'Terminal batches stored',
    registers: [registry],
  });
  const records = new Counter({
    name: 'fleet_ingest_records_total',
    help: 'Records in the terminal batches stored',
    registers: [registry],
  });
  const groupBatches = new Histogram({
    name: 'fleet_group_commit_batches',
    help: 'Batches per group-commit transaction',
    buckets: [1, 2, 5, 10, 20, 50, 100],
    registers: [registry],
  });
  const groupRecords = new Histogram({
    name: 'fleet_group_commit_records',
    help: 'Records per group-commit transaction',
    buckets: [1, 10, 100, 1000, 5000, 10000],
    registers: [registry],
  });
  const onCommit = (message: unknown) => {
    const commit = message as GatewayCommit;
    batches.inc(commit.batches);
    records.inc(commit.records);
    groupBatches.observe(commit.batches);
    groupRecords.observe(commit.records);
  };
  gatewayCommits.subscribe(onCommit);
  app.addHook('onClose', async () => {
    gatewayCommits.unsubscribe(onCommit);
  });

  const readShared = (what: string, read: () => Promise<void>) =>
    read().catch((err: unknown) => app.log.warn({ err }, `metrics: ${what} not read`));
  new Gauge({
    name: 'fleet_commands',
    help: 'Reserved commands not finished, by state',
    labelNames: ['state'],
    registers: [registry],
    async collect() {
      this.reset();
      await readShared('commands', async () => {
        const { rows } = await sql<{ state: number; n: number }>`
          SELECT state, count(*)::int AS n FROM reserved_commands WHERE deleted_at IS NULL AND state < 3 GROUP BY state`.execute(
          ctx.db,
        );
        for (const name of Object.values(OPEN_COMMAND_STATES)) this.set({ state: name }, 0);
        for (const r of rows) this.set({ state: OPEN_COMMAND_STATES[r.state] ?? String(r.state) }, Number(r.n));
      });
    },
  });
  new Gauge({
    name: 'fleet_mail_outbox',
    help: 'Mail not sent yet: pending (will be tried again) and failed (gave up)',
    labelNames: ['status'],
    registers: [registry],
    async collect() {
      this.reset();
      await readShared('mail outbox', async () => {
        const { rows } = await sql<{ pending: number; failed: number }>`
          SELECT count(*) FILTER (WHERE attempts < ${MAIL_MAX_ATTEMPTS})::int AS pending, count(*) FILTER (WHERE attempts >= ${MAIL_MAX_ATTEMPTS})::int AS failed
            FROM mail_outbox WHERE sent_at IS NULL`.execute(ctx.db);
        this.set({ status: 'pending' }, Number(rows[0]?.pending ?? 0));
        this.set({ status: 'failed' }, Number(rows[0]?.failed ?? 0));
      });
    },
  });
  // Read before the scrape's own queries (commands, outbox) ask the pool for connections: pg's pool queues
  // such a request for a tick even when a connection is idle, and it would count as waiting.
  let poolCounts: { total: number; idle: number; waiting: number } | undefined;
  new Gauge({
    name: 'fleet_db_pool_connections',
    help: 'PostgreSQL pool: connections open (total), idle, and requests waiting for one',
    labelNames: ['state'],
    registers: [registry],
    collect() {
      if (!poolCounts) return;
      this.set({ state: 'total' }, poolCounts.total);
      this.set({ state: 'idle' }, poolCounts.idle);
      this.set({ state: 'waiting' }, poolCounts.waiting);
    },
  });
  const scrape = () => {
    const pool = poolOf(ctx.db);
    poolCounts = pool && { total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount };
    return registry.metrics();
  };

  const token = ctx.config.METRICS_TOKEN;
  const allowed = (header: string | undefined) => {
    if (!token) return true;
    const given = Buffer.from(header?.startsWith('Bearer ') ? header.slice(7).trim() : '');
    const wanted = Buffer.from(token);
    return given.length === wanted.length && timingSafeEqual(given, wanted);
  };
  const unauthorized = JSON.stringify({ code: 'UNAUTHORIZED', message: errorMessages.unauthorized } satisfies ApiError);
  if (exposure === 'port') return serveOnPort(app, ctx, { registry, scrape, allowed, unauthorized });
  app.get(METRICS_PATH, { logLevel: 'warn', exposeHeadRoute: false }, async (request, reply) => {
    if (!allowed(request.headers.authorization)) {
      reply.header('www-authenticate', 'Bearer realm="metrics"');
      return reply.status(401).type('application/json; charset=utf-8').send(unauthorized);
    }
    reply.header('cache-control', 'no-store').type(registry.contentType);
    return scrape();
  });
}

/**
 * Where GET /metrics is served (README's configuration, ops/README.md):
 * - 'port': METRICS_PORT is set: on that port of its own only (behind METRICS_TOKEN too when set),
 *   never on the main port, which the internet may reach;
 * - 'token': METRICS_TOKEN alone: on the main port, to a bearer of the token;
 * - 'open': neither, outside production (development, tests): on the main port, open;
 * - 'off': neither, in production: nowhere, and the server says so at start.
 */
export function metricsExposure(config: Pick<Config, 'METRICS_PORT' | 'METRICS_TOKEN' | 'production'>) {
  if (config.METRICS_PORT) return 'port' as const;
  if (config.METRICS_TOKEN) return 'token' as const;
  return config.production ? ('off' as const) : ('open' as const);
}

/** METRICS_PORT's listener: GET /metrics and nothing else, opened with the app and closed with it. */
function serveOnPort(
  app: FastifyInstance,
  ctx: AppContext,
  m: {
    registry: Registry;
    scrape: () => Promise<string>;
    allowed: (header: string | undefined) => boolean;
    unauthorized: string;
  },
) {
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path !== METRICS_PATH || req.method !== 'GET') {
      res.writeHead(404, { 'content-type': 'application/json; charset=utf-8' });
      return res.end(JSON.stringify({ code: 'NOT_FOUND', message: errorMessages.notFound } satisfies ApiError));
    }
    if (!m.allowed(req.headers.authorization)) {
      res.writeHead(401, {
        'content-type': 'application/json; charset=utf-8',
        'www-authenticate': 'Bearer realm="metrics"',
      });
      return res.end(m.unauthorized);
    }
    m.scrape().then(
      (text) => {
        res.writeHead(200, { 'content-type': m.registry.contentType, 'cache-control': 'no-store' });
        res.end(text);
      },
      (err: unknown) => {
        app.log.error({ err }, 'metrics not collected');
        res.writeHead(500).end();
      },
    );
  });
  server.requestTimeout = ctx.config.REQUEST_TIMEOUT_MS;
  const port = ctx.config.METRICS_PORT!;
  app.addHook('onReady', async () => {
    await new Promise<void>((resolve) => {
      // A port already taken is logged loudly and the server goes on without metrics.
      server.once('error', (err) => {
        app.log.error({ err, port }, 'METRICS_PORT could not be opened; metrics are not served');
        resolve();
      });
      server.listen(port, ctx.config.HOST, () => {
        app.log.info({ port }, 'metrics served on METRICS_PORT');
        resolve();
      });
    });
  });
  app.addHook('onClose', async () => {
    if (!server.listening) return;
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  });
}
