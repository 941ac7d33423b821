import type { FastifyInstance } from 'fastify';
import { buildApp } from '@fleet/server/app';
import { loadConfig } from '@fleet/server/config';
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
  token: string;
  close(): Promise<void>;
}

export async function startServer(bdb: BenchDb, webRoot: string | undefined): Promise<BenchServer> {
  const capture = new SqlCapture();
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
    db: bdb.db.withPlugin(capture),
    config,
    logger: process.env.BENCH_SERVER_LOG === '1',
    ...(webRoot ? { webRoot } : {}),
  });
  const url = await app.listen({ host: '127.0.0.1', port: 0 });
  const token = (await login(url)).token;
  return { app, url, capture, token, close: () => app.close() };
}

export async function login(url: string) {
  const res = await fetch(`${url}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: BENCH_ADMIN, password: BENCH_PASSWORD }),
  });
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
