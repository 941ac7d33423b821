import {
  LIVE_PATH,
  carEngineStateReserve,
  liveTicket,
  login,
  logout,
  me,
  stepUp,
  type Call,
  type CallRequest,
} from '@fleet/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, demoCompanies, demoFleet } from '../../../src/seed/demo-data.js';
import {
  callServer,
  createCluster,
  faultTestsAvailable,
  query,
  startServerProcess,
  stopServerProcess,
  type Cluster,
  type ServerProcess,
} from './cluster.js';

/**
 * Operating the real server process on a private PostgreSQL: the readiness probe follows the
 * database, and two instances started at the same moment on an empty database both come up (one
 * migrates and seeds, the other waits for it) and then work as one product.
 */
const available = faultTestsAvailable();

let cluster: Cluster;
const servers: ServerProcess[] = [];
beforeAll(async () => {
  if (!available) return;
  cluster = await createCluster();
}, 120_000);
afterAll(async () => {
  await Promise.all(servers.map((s) => stopServerProcess(s)));
  await cluster?.destroy();
});

const status = async (url: string) => {
  try {
    return (await fetch(url, { signal: AbortSignal.timeout(10_000) })).status;
  } catch {
    return 0;
  }
};

describe.skipIf(!available)('operating the server process', () => {
  it('GET /readyz answers 503 while the database is stopped and 200 again once it is back; /healthz stays 200', async () => {
    await query(cluster.url(), 'CREATE DATABASE probes');
    const server = await startServerProcess(cluster.url('probes'));
    servers.push(server);
    expect(await status(`${server.url}/readyz`)).toBe(200);

    await cluster.stop('fast');
    try {
      expect(await status(`${server.url}/readyz`)).toBe(503);
      expect(await status(`${server.url}/healthz`)).toBe(200);
    } finally {
      await cluster.start();
    }
    const deadline = Date.now() + 20_000;
    while ((await status(`${server.url}/readyz`)) !== 200 && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 250));
    expect(await status(`${server.url}/readyz`)).toBe(200);
    await stopServerProcess(server);
  });

  it('two instances started at once on an empty database both come up, seed once, and serve one fleet across each other', async () => {
    await query(cluster.url(), 'CREATE DATABASE fleet_two');
    const url = cluster.url('fleet_two');
    // Development mode: both would seed the demo if the boot lock did not make them take turns.
    const env = { NODE_ENV: 'development', SIMULATE: '0', OSMAND_PORT: '0', LOG_FORMAT: 'json', LOG_LEVEL: 'info' };
    const [a, b] = await Promise.all([startServerProcess(url, 90_000, env), startServerProcess(url, 90_000, env)]);
    servers.push(a!, b!);
    for (const s of [a!, b!]) {
      expect(await status(`${s.url}/readyz`)).toBe(200);
      expect(s.output()).not.toMatch(/duplicate key|unique constraint/);
    }
    const companies = await query<{ n: number }>(url, 'SELECT count(*)::int AS n FROM companies');
    expect(companies[0]!.n).toBe(demoCompanies.length);

    // The console on B, the terminal on A.
    const api = <C extends Call>(c: C, body: NoInfer<CallRequest<C>>, token?: string) =>
      callServer(b!.url, token, c, body);
    const { token } = (await api(login, { username: 'admin', password: DEMO_PASSWORD })).body;
    const { ticket } = (await api(liveTicket, {}, token)).body;
    const controller = new AbortController();
    const live = await fetch(`${b!.url}${LIVE_PATH}?ticket=${encodeURIComponent(ticket)}`, {
      signal: controller.signal,
    });
    expect(live.status).toBe(200);
    const reader = live.body!.pipeThrough(new TextDecoderStream()).getReader();
    let received = '';
    const eventAbout = async (imei: string) => {
      const until = Date.now() + 15_000;
      while (Date.now() < until) {
        const blocks = received.split('\n\n');
        const hit = blocks.find((block) => block.startsWith('event: state') && block.includes(imei));
        if (hit) return hit;
        const { value, done } = await reader.read();
        if (done) break;
        received += value;
      }
      throw new Error(`no live state for ${imei}; got:\n${received.slice(-1000)}`);
    };

    const terminal = demoFleet()[0]!.device;
    const auth = `Basic ${Buffer.from(`${terminal.car_device_id}:${terminal.password}`).toString('base64')}`;
    const report = async (seq: number) => {
      const res = await fetch(`${a!.url}/device/v1/batch`, {
        method: 'POST',
        headers: { authorization: auth, 'content-type': 'application/json' },
        body: JSON.stringify({
          seq,
          records: [{ type: 'gps', time: new Date().toISOString(), lat: 35.68, lng: 139.76, speed: 20 }],
        }),
      });
      expect(res.status).toBe(200);
      return (await res.json()) as { commands: { id: number }[] };
    };
    try {
      await new Promise((r) => setTimeout(r, 300)); // B's LISTEN is open once the snapshot went out
      await report(1);
      expect(await eventAbout(terminal.car_data_id)).toContain('35.68');

      expect((await api(stepUp, { password: DEMO_PASSWORD }, token)).status).toBe(200);
      const reserved = await api(
        carEngineStateReserve,
        { car_data_id: terminal.car_data_id, cmd_info: { cmd: 1 } },
        token,
      );
      expect(reserved.status, reserved.text).toBe(200);
      expect((await report(2)).commands.map((c) => c.id)).toEqual([reserved.body.command.command_id]);
    } finally {
      controller.abort();
    }

    expect((await api(logout, {}, token)).status).toBe(200);
    expect((await callServer(a!.url, token, me, {})).status).toBe(401);
  });
});
