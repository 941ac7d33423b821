import type { FastifyInstance } from 'fastify';
import { buildApp } from '@fleet/server/app';
import { loadConfig } from '@fleet/server/config';
import { withPlugin } from '@fleet/server/database';
import { SqlCapture, type BenchDb } from './db.js';
import { BENCH_ADMIN, BENCH_PASSWORD } from './generate.js';

/**
 * The real server: buildApp over the bench database, listening on a free
 * loopback port, with a plugin that can record the SQL it issues. Map tiles
 * point at a closed port so the browser never waits on the internet.
 */
export interface BenchServer {
  app: FastifyInstance;
  url: string;
  capture: SqlCapture;
  /**
   * The bench's bare route (`POST /__bench/bare/<key>`, registered here, never by the product): Fastify
   * alone answering the bytes stored under the key, no auth, no validation, no database. The framework's floor.
   */
  bare: Map<string, string>;
  /**
   * The bare route that waits as the API does (`POST /__bench/bare-sql/<key>`): Fastify alone running the
   * statements stored under the key through the bench's raw `pg` pool in this process (no auth, no
   * validation, no Kysely, no access layer), then answering the bytes stored in `bare` under the same key.
   * Each call's SQL span is appended to `bareSpans` under its key. The framework's floor for a call that
   * waits on PostgreSQL as long as the API's call does (issue #19, 28 November).
   */
  bareSql: Map<string, readonly BareStatement[]>;
  bareSpans: Map<string, number[]>;
  token: string;
  /**
   * Stops the server, opens its database again (BenchDb.reopen) and starts it anew on another free port, as after a
   * deployment: the next calls meet cold caches and pages. This object takes the new server's `app` and `url`; the
   * bench's session stays valid (it lives in the database).
   */
  restart(): Promise<void>;
  close(): Promise<void>;
}

/** A statement as the app sent it: what the list section's anchor replays and the bare route runs. */
export interface BareStatement {
  sql: string;
  parameters: readonly unknown[];
  name?: string | undefined;
}

export async function startServer(bdb: BenchDb, webRoot: string | undefined): Promise<BenchServer> {
  const capture = new SqlCapture();
  const bare = new Map<string, string>();
  const bareSql = new Map<string, readonly BareStatement[]>();
  const bareSpans = new Map<string, number[]>();
  const { app, url } = await listenApp(bdb, webRoot, capture, bare, bareSql, bareSpans);
  const token = (await login(url)).token;
  const server: BenchServer = {
    app,
    url,
    capture,
    bare,
    bareSql,
    bareSpans,
    token,
    restart: async () => {
      await server.app.close();
      await bdb.reopen();
      Object.assign(server, await listenApp(bdb, webRoot, capture, bare, bareSql, bareSpans));
    },
    close: () => server.app.close(),
  };
  return server;
}

async function listenApp(
  bdb: BenchDb,
  webRoot: string | undefined,
  capture: SqlCapture,
  bare: Map<string, string>,
  bareSql: Map<string, readonly BareStatement[]>,
  bareSpans: Map<string, number[]>,
) {
  const config = loadConfig({
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    SIMULATE: 'false',
    DATABASE_URL: bdb.url ?? '',
    TILE_URL: 'http://127.0.0.1:9/{z}/{x}/{y}.png',
    PUBLIC_URL: 'http://bench.invalid',
  });
  // BENCH_SERVER_LOG=1 shows the server's warnings and errors (e.g. what a 5xx was).
  const app = await buildApp({
    db: withPlugin(bdb.db, capture),
    config,
    logger: process.env.BENCH_SERVER_LOG === '1',
    // BENCH_SESSION_CACHE=0: without the in-process session cache (the A/B of issue #19).
    sessionCache: process.env.BENCH_SESSION_CACHE !== '0',
    ...(webRoot ? { webRoot } : {}),
  });
  app.post<{ Params: { key: string } }>('/__bench/bare/:key', async (request, reply) => {
    const text = bare.get(request.params.key);
    if (text === undefined) return reply.code(404).send();
    return reply.type('application/json; charset=utf-8').send(text);
  });
  app.post<{ Params: { key: string } }>('/__bench/bare-sql/:key', async (request, reply) => {
    const { key } = request.params;
    const text = bare.get(key);
    const statements = bareSql.get(key);
    if (text === undefined || statements === undefined) return reply.code(404).send();
    const t = performance.now();
    for (const q of statements) await bdb.raw(q.sql, q.parameters, q.name);
    const spans = bareSpans.get(key) ?? [];
    spans.push(performance.now() - t);
    bareSpans.set(key, spans);
    return reply.type('application/json; charset=utf-8').send(text);
  });
  return { app, url: await app.listen({ host: '127.0.0.1', port: 0 }) };
}

/**
 * Signs the bench's administrator in. The server allows 20 password checks a minute per account
 * (credentials/login-limit.ts), which a whole `--quick` run's sections can reach together: a refusal
 * waits out that minute once, and says so.
 */
export async function login(url: string) {
  const attempt = () =>
    fetch(`${url}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: BENCH_ADMIN, password: BENCH_PASSWORD }),
    });
  let res = await attempt();
  if (res.status === 429) {
    console.log('[bench] sign-in limit reached (20 a minute per account): waiting a minute');
    await new Promise((resolve) => setTimeout(resolve, 61_000));
    res = await attempt();
  }
  if (res.status !== 200) throw new Error(`login failed: ${res.status} ${await res.text()}`);
  return (await res.json()) as { id: string; username: string; role: number; token: string; company_id: string | null };
}

/** POSTs a JSON call with the bench token; throws on anything but 200. Returns the body text. */
export async function call(server: Pick<BenchServer, 'url' | 'token'>, path: string, body: unknown): Promise<string> {
  const res = await fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${server.token}` },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`${path} answered ${res.status}: ${text.slice(0, 300)}`);
  return text;
}
