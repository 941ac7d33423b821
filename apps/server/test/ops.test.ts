import { clientConfig, login as loginCall, me as meCall } from '@fleet/contract';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PUBLIC_CALLS, contractCalls } from '../src/ops/openapi.js';
import { buildInfo } from '../src/ops/version.js';
import { callAs, createTestApp, login, post, seedFixtures, type TestApp } from './helper.js';
import { registeredRoutes } from './security/world.js';
import { at, sendBatch, terminalA } from './telemetry-support.js';

/** The operator's endpoints: probes, metrics, the OpenAPI document and its reading UI. */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await seedFixtures(t.db);
});
afterAll(() => t?.close());

const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });

describe('probes', () => {
  it('GET /healthz answers 200 while the process runs', async () => {
    const res = await get('/healthz');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok' });
  });

  it('GET /readyz answers 200 once the database answers and holds every migration', async () => {
    const res = await get('/readyz');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
  });
});

describe('GET /metrics', () => {
  it('reports HTTP requests by route and status, the ingest, group commits, commands, outbox, live clients, event loop and process', async () => {
    const token = await login(t.app, 'staffA');
    expect((await callAs(t.app, token, meCall, {})).status).toBe(200);
    expect((await callAs(t.app, undefined, meCall, {})).status).toBe(401);
    const batch = await sendBatch(t.app, terminalA, {
      seq: 9001,
      records: [
        { type: 'gps', time: at(0), lat: 35.6, lng: 139.7 },
        { type: 'gps', time: at(1), lat: 35.61, lng: 139.71 },
      ],
    });
    expect(batch.statusCode, batch.body).toBe(200);

    const res = await get('/metrics');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = res.body;
    // The route label is the call's path ('/' needs no escape in a RegExp built from a string).
    const line = (pattern: string) => new RegExp(`^${pattern}$`, 'm');
    expect(text).toMatch(line(`http_requests_total\\{method="POST",route="${meCall.path}",status_code="200"\\} 1`));
    expect(text).toMatch(line(`http_requests_total\\{method="POST",route="${meCall.path}",status_code="401"\\} 1`));
    expect(text).toMatch(
      line(
        `http_request_duration_seconds_bucket\\{le="0\\.005",method="POST",route="${loginCall.path}",status_code="200"\\} \\d+`,
      ),
    );
    expect(text).toMatch(/^fleet_ingest_batches_total [1-9]\d*$/m);
    expect(text).toMatch(/^fleet_ingest_records_total [2-9]\d*$/m);
    expect(text).toMatch(/^fleet_group_commit_batches_count [1-9]\d*$/m);
    expect(text).toMatch(/^fleet_group_commit_records_bucket\{le="10"\} [1-9]\d*$/m);
    expect(text).toMatch(/^fleet_commands\{state="execWait"\} \d+$/m);
    expect(text).toMatch(/^fleet_mail_outbox\{status="pending"\} \d+$/m);
    expect(text).toMatch(/^fleet_live_clients 0$/m);
    expect(text).toMatch(/^nodejs_eventloop_lag_p99_seconds [\d.e+-]+$/m);
    expect(text).toMatch(/^process_resident_memory_bytes \d+$/m);
    if (t.db && process.env.DATABASE_URL) expect(text).toMatch(/^fleet_db_pool_connections\{state="total"\} \d+$/m);
  });

  it('build_info: the version and the commit, value 1; the pool gauge reports no waiting request on an idle instance', async () => {
    const text = (await get('/metrics')).body;
    const { version, commit } = buildInfo();
    expect(text).toContain(`fleet_build_info{version="${version}",commit="${commit ?? 'unknown'}"} 1`);
    if (process.env.DATABASE_URL) {
      // The scrape's own reads of the database (commands, outbox) must not count as waiting.
      expect(text).toMatch(/^fleet_db_pool_connections\{state="waiting"\} 0$/m);
      expect((await get('/metrics')).body).toMatch(/^fleet_db_pool_connections\{state="waiting"\} 0$/m);
    }
  });

  it('a URL no route matches is counted under one label', async () => {
    await get('/no/such/path/abc123');
    const text = (await get('/metrics')).body;
    expect(text).toMatch(/route="unmatched",status_code="404"/);
    expect(text).not.toContain('abc123');
  });
});

describe('GET /metrics with METRICS_TOKEN', () => {
  let guarded: TestApp;
  beforeAll(async () => {
    guarded = await createTestApp({ env: { METRICS_TOKEN: 'metrics-secret-0123456789' } });
  });
  afterAll(() => guarded?.close());

  it('wants the Bearer token: 401 without it or with another, 200 with it', async () => {
    const ask = (authorization?: string) =>
      guarded.app.inject({ method: 'GET', url: '/metrics', headers: authorization ? { authorization } : {} });
    const none = await ask();
    expect(none.statusCode).toBe(401);
    expect(none.json()).toMatchObject({ code: 'UNAUTHORIZED' });
    expect((await ask('Bearer metrics-secret-01234567xx')).statusCode).toBe(401);
    expect((await ask('Bearer metrics-secret-0123456789')).statusCode).toBe(200);
  });
});

/** A port free at this moment, for METRICS_PORT (0 there means "none"). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('GET /metrics in production, METRICS_PORT', () => {
  it('in production without METRICS_PORT or METRICS_TOKEN: metrics are off, and the server says so at start', async () => {
    const lines: string[] = [];
    const prod = await createTestApp({
      env: { NODE_ENV: 'production', LOG_LEVEL: 'info' },
      logStream: { write: (line: string) => void lines.push(line) },
    });
    try {
      expect((await prod.app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(404);
      expect(lines.join('')).toContain('metrics are off');
    } finally {
      await prod.close();
    }
  });

  it('with METRICS_PORT: served on that port only (behind METRICS_TOKEN when set), never on the main port', async () => {
    const port = await freePort();
    const token = 'metrics-secret-0123456789';
    const app = await createTestApp({
      env: { NODE_ENV: 'production', METRICS_PORT: String(port), METRICS_TOKEN: token, HOST: '127.0.0.1' },
    });
    try {
      expect(
        (await app.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${token}` } }))
          .statusCode,
      ).toBe(404);
      const url = `http://127.0.0.1:${port}/metrics`;
      expect((await fetch(url)).status).toBe(401);
      const res = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
      expect(res.status).toBe(200);
      expect(await res.text()).toMatch(/^process_resident_memory_bytes \d+$/m);
      expect((await fetch(`http://127.0.0.1:${port}/api/me`)).status).toBe(404);
    } finally {
      await app.close();
    }
  });
});

describe('GET /api/openapi.json', () => {
  interface Doc {
    openapi: string;
    paths: Record<
      string,
      Record<string, { security?: unknown[]; requestBody?: unknown; responses: Record<string, unknown> }>
    >;
    components: { securitySchemes: Record<string, unknown> };
  }
  let doc: Doc;
  beforeAll(async () => {
    const res = await get('/api/openapi.json');
    expect(res.statusCode).toBe(200);
    doc = res.json<Doc>();
  });

  it('is OpenAPI 3.1 with the auth schemes of users, live tickets, terminals and metrics', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.components.securitySchemes).sort()).toEqual(['bearer', 'liveTicket', 'metrics', 'terminal']);
  });

  it('describes every registered route (the reading UI’s own files aside)', () => {
    const routes = registeredRoutes(t.app).filter((r) => r === 'GET /api/docs' || !/^[A-Z]+ \/api\/docs(\/|$)/.test(r));
    expect(routes.length).toBeGreaterThan(80);
    const missing = routes.filter((r) => {
      const [method, route] = r.split(' ') as [string, string];
      const path = route.replace(/:(\w+)/g, '{$1}');
      return !doc.paths[path]?.[method.toLowerCase()];
    });
    expect(missing, 'registered routes missing from the OpenAPI document').toEqual([]);
  });

  it('every contract call has its request, its response and the error answers', () => {
    for (const call of contractCalls()) {
      const op = doc.paths[call.path]?.post;
      expect(op, call.path).toBeDefined();
      expect(op!.requestBody, call.path).toBeDefined();
      expect(Object.keys(op!.responses), call.path).toEqual(expect.arrayContaining(['200', '400', '500', '503']));
    }
  });

  it('marks as public exactly the calls the server answers without a token', async () => {
    const calls = contractCalls();
    const answers = await Promise.all(calls.map((c) => post(t.app, c.path, {})));
    const open = calls.filter((_c, i) => answers[i]!.statusCode !== 401).map((c) => c.path);
    expect(open.sort()).toEqual([...PUBLIC_CALLS].sort());
    for (const call of calls) {
      const op = doc.paths[call.path]!.post!;
      if (PUBLIC_CALLS.has(call.path)) expect(op.security, call.path).toEqual([]);
      else expect(Object.keys(op.responses), call.path).toContain('401');
    }
  });
});

describe('map tiles', () => {
  it('default to 地理院タイル with 出典：国土地理院 linked to GSI; TILE_URL and TILE_ATTRIBUTION change them', async () => {
    const config = (await callAs(t.app, undefined, clientConfig, {})).body;
    expect(config.tile_url).toBe('https://cyberjapandata.gsi.go.jp/xyz/std/{z}/{x}/{y}.png');
    expect(config.tile_attribution).toContain('出典：<a href="https://maps.gsi.go.jp/development/ichiran.html"');
    expect(config.tile_attribution).toContain('国土地理院</a>');
    const csp = String((await get('/healthz')).headers['content-security-policy']);
    expect(csp).toMatch(/img-src [^;]*https:\/\/cyberjapandata\.gsi\.go\.jp/);

    const own = await createTestApp({
      env: { TILE_URL: 'https://tiles.example.jp/{z}/{x}/{y}.png', TILE_ATTRIBUTION: '© Example' },
    });
    try {
      const answer = (await callAs(own.app, undefined, clientConfig, {})).body;
      expect(answer).toEqual({ tile_url: 'https://tiles.example.jp/{z}/{x}/{y}.png', tile_attribution: '© Example' });
    } finally {
      await own.close();
    }
  });
});

describe('/api/docs', () => {
  it('serves Swagger UI from this server, reading the document of this server', async () => {
    const page = await get('/api/docs/');
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    const scripts = [...page.body.matchAll(/<script src="([^"]+)"/g)].map((m) => m[1]!);
    expect(scripts.length).toBeGreaterThan(0);
    for (const src of scripts) {
      expect(src, 'no CDN').not.toMatch(/^https?:/);
      const asset = await get(`/api/docs/${src.replace(/^\.\//, '')}`);
      expect(asset.statusCode, src).toBe(200);
    }
    const spec = await get('/api/docs/json');
    expect(spec.json<{ openapi: string }>().openapi).toBe('3.1.0');
  });
});
