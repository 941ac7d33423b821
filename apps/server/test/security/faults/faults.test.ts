import { carList, errorMessages, login, type Call } from '@fleet/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashDeviceSecret } from '../../../src/credentials/device-secret.js';
import { createSession } from '../../../src/sessions/session.repository.js';
import { migrate, openDatabase } from '../../../src/db/database.js';
import {
  blackHole,
  callServer,
  faultTestsAvailable,
  createCluster,
  query,
  startServerProcess,
  stopServerProcess,
  type Cluster,
  type ServerProcess,
} from './cluster.js';

/**
 * Faults with real processes, on loopback, bounded in time: a private
 * PostgreSQL cluster restarted, stopped and impersonated by a port that never
 * answers, and the real server process killed with SIGKILL mid-batch.
 * Skipped, with a notice, only where no PostgreSQL server binaries exist.
 */
const available = faultTestsAvailable();

const DEVICE = { car_device_id: 'fault-terminal', car_data_id: '358409199999999', secret: 'fault-secret-1' };
const AUTH = `Basic ${Buffer.from(`${DEVICE.car_device_id}:${DEVICE.secret}`).toString('base64')}`;
/** Batch `seq` holds `size` positions at BASE + seq·100 s + i·10 ms, so rows tell which batch they came from. */
const BASE = Date.now() - 2 * 86_400_000;
const SLOT_MS = 100_000;
const batch = (seq: number, size: number) => ({
  seq,
  records: Array.from({ length: size }, (_, i) => ({
    type: 'gps',
    time: new Date(BASE + seq * SLOT_MS + i * 10).toISOString(),
    lat: 35 + i / 1e4,
    lng: 139,
    speed: 10,
  })),
});

let cluster: Cluster;
let server: ServerProcess;
let databaseUrl: string;
let token: string;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Sends one batch; the status, or 0 when the connection itself failed. */
async function send(seq: number, size: number, signal?: AbortSignal): Promise<number> {
  try {
    const res = await fetch(`${server.url}/device/v1/batch`, {
      method: 'POST',
      headers: { authorization: AUTH, 'content-type': 'application/json' },
      body: JSON.stringify(batch(seq, size)),
      signal: signal ?? AbortSignal.timeout(15_000),
    });
    await res.arrayBuffer();
    return res.status;
  } catch {
    return 0;
  }
}

/** What a terminal does: resend the same seq until it is acknowledged (bounded). Returns the statuses seen. */
async function deliver(seq: number, size: number, deadline: number): Promise<number[]> {
  const seen: number[] = [];
  for (;;) {
    const status = await send(seq, size);
    seen.push(status);
    if (status >= 200 && status < 300) return seen;
    if (Date.now() > deadline)
      throw new Error(
        `batch ${seq} not acknowledged in time: ${seen.slice(-5).join(',')}\n${server.output().slice(-3000)}`,
      );
    await sleep(150);
  }
}

/** Rows stored per batch (by the time slot each batch writes in) and the batch receipts. */
async function stored() {
  const rows = await query<{ seq: number; n: number }>(
    databaseUrl,
    `SELECT floor((extract(epoch FROM recorded_at) * 1000 - $2) / $3)::int AS seq, count(*)::int AS n
       FROM gps_logs WHERE car_data_id = $1 GROUP BY 1 ORDER BY 1`,
    [DEVICE.car_data_id, BASE, SLOT_MS],
  );
  const receipts = await query<{ seq: number; accepted: number }>(
    databaseUrl,
    'SELECT seq::int AS seq, accepted FROM device_batches WHERE car_data_id = $1 ORDER BY seq',
    [DEVICE.car_data_id],
  );
  return {
    perBatch: new Map(rows.map((r) => [r.seq, r.n])),
    receipts: new Map(receipts.map((r) => [r.seq, r.accepted])),
  };
}

/** Every receipt has exactly its batch's rows, and no rows exist without a receipt: no half-written batch. */
async function expectWholeBatches(size: number) {
  const { perBatch, receipts } = await stored();
  for (const [seq, accepted] of receipts) {
    expect(accepted, `receipt of batch ${seq}`).toBe(size);
    expect(perBatch.get(seq) ?? 0, `rows of batch ${seq}`).toBe(size);
  }
  for (const seq of perBatch.keys()) expect(receipts.has(seq), `rows of batch ${seq} without a receipt`).toBe(true);
  return receipts;
}

/** A console call as the super admin (the database may be down: any status). */
const callConsole = (c: Call, body: object = {}) => callServer(server.url, token, c, body);

describe.skipIf(!available)('faults with a real PostgreSQL and a real server process', () => {
  beforeAll(async () => {
    cluster = await createCluster();
    await query(cluster.url(), 'CREATE DATABASE fleet');
    databaseUrl = cluster.url('fleet');
    const database = await openDatabase({ url: databaseUrl, poolSize: 1 });
    try {
      await migrate(database.db);
      await database.db.insertInto('companies').values({ company_id: 'fault-co', company_name: '障害試験' }).execute();
      await database.db
        .insertInto('accounts')
        .values({
          account_id: 'fault-admin',
          name: '障害 試験',
          email: 'fault@example.jp',
          role: 0,
          company_id: null,
          password_hash: 'unused',
        })
        .execute();
      await database.db
        .insertInto('devices')
        .values({
          car_device_id: DEVICE.car_device_id,
          car_data_id: DEVICE.car_data_id,
          password_hash: hashDeviceSecret(DEVICE.secret),
        })
        .execute();
      token = await createSession(database.db, 'fault-admin', { idleMinutes: 600, maxHours: 12 });
    } finally {
      await database.close();
    }
    server = await startServerProcess(databaseUrl);
  }, 120_000);

  afterAll(async () => {
    await stopServerProcess(server);
    await cluster?.destroy();
  }, 60_000);

  it('PostgreSQL restarted while a terminal reports: every acknowledged batch is stored, retried ones exactly once', async () => {
    const size = 20;
    const seqs = Array.from({ length: 40 }, (_, i) => i + 1);
    const deadline = Date.now() + 60_000;
    const statuses: number[] = [];
    // The restart starts once a few batches are in and runs while the rest are sent.
    const restart = (async () => {
      while ((await stored().catch(() => ({ receipts: new Map() }))).receipts.size < 5) await sleep(50);
      await cluster.stop('fast');
      await sleep(1500);
      await cluster.start();
    })();
    for (const seq of seqs) statuses.push(...(await deliver(seq, size, deadline)));
    await restart;
    // The restart was seen: some batches were refused while the database was away.
    const refused = statuses.filter((s) => s < 200 || s >= 300);
    expect(refused.length, 'no batch met the restart: the test proved nothing').toBeGreaterThan(0);
    expect(
      refused.every((s) => s === 503),
      `only 503 while the database was away, got ${refused.join(',')}`,
    ).toBe(true);
    const receipts = await expectWholeBatches(size);
    expect([...receipts.keys()]).toEqual(seqs);
    // Sending everything again stores nothing more: each batch is stored once.
    for (const seq of seqs.slice(0, 5)) expect(await send(seq, size)).toBe(200);
    const again = await stored();
    expect([...again.perBatch.values()].every((n) => n === size)).toBe(true);
    expect(server.child.exitCode, server.output()).toBeNull();
  }, 120_000);

  it('database unreachable: calls answer 503 in Japanese within 5 s, the server stays up, and service resumes by itself', async () => {
    expect((await callConsole(carList)).status).toBe(200);
    const expect503 = async (label: string) => {
      for (const [c, body] of [
        [carList, {}],
        [login, { username: 'fault-admin', password: 'whatever-pass' }],
      ] as const) {
        const path = c.path;
        const started = Date.now();
        const res = await callConsole(c, body);
        const elapsed = Date.now() - started;
        expect(res.status, `${label} ${path}`).toBe(503);
        expect(JSON.parse(res.text)).toEqual({ code: 'UNAVAILABLE', message: errorMessages.unavailable });
        expect(elapsed, `${label} ${path}: answered after ${elapsed} ms`).toBeLessThan(5000);
      }
      const started = Date.now();
      expect(await send(9001, 1), `${label} gateway`).toBe(503);
      expect(Date.now() - started).toBeLessThan(5000);
    };

    await cluster.stop('fast');
    await expect503('stopped');
    // Worse than refused: the port accepts and never answers.
    const hole = await blackHole(cluster.port);
    try {
      await expect503('not answering');
    } finally {
      await hole.close();
    }
    expect(server.child.exitCode, server.output()).toBeNull();

    await cluster.start();
    const deadline = Date.now() + 30_000;
    let status = 0;
    while (Date.now() < deadline && status !== 200) {
      status = (await callConsole(carList).catch(() => ({ status: 0 }))).status;
      if (status !== 200) await sleep(250);
    }
    expect(status, 'service did not resume within 30 s of the database returning').toBe(200);
    expect(await send(9002, 1)).toBe(200);
  }, 120_000);

  it('server killed with SIGKILL mid-batch and restarted: no half-written batch, and the rest goes through', async () => {
    await query(databaseUrl, 'DELETE FROM gps_logs; DELETE FROM device_batches');
    const size = 2000;
    const seqs = Array.from({ length: 60 }, (_, i) => 100 + i);
    // Four terminals send large batches side by side; the kill comes as soon as a few are acknowledged,
    // so others are in the middle of being written.
    const first = new Map<number, number>();
    let killed = false;
    const kill = () => {
      if (killed) return;
      killed = true;
      server.child.kill('SIGKILL');
    };
    const queue = [...seqs];
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        for (let seq = queue.shift(); seq !== undefined && !killed; seq = queue.shift()) {
          const status = await send(seq, size);
          first.set(seq, status);
          if ([...first.values()].filter((s) => s === 200).length >= 5) kill();
        }
      }),
    );
    kill();
    expect(await server.exited).toBe('SIGKILL');
    const acknowledged = seqs.filter((seq) => first.get(seq) === 200);
    expect(
      seqs.some((seq) => first.get(seq) === 0),
      'no batch was in flight when the server died',
    ).toBe(true);

    // Atomic: each batch is all there with its receipt, or not there at all; every acknowledged one is there.
    const receipts = await expectWholeBatches(size);
    for (const seq of acknowledged) expect(receipts.has(seq), `acknowledged batch ${seq}`).toBe(true);

    server = await startServerProcess(databaseUrl);
    const deadline = Date.now() + 60_000;
    for (const seq of seqs) await deliver(seq, size, deadline);
    const after = await expectWholeBatches(size);
    expect([...after.keys()]).toEqual(seqs);
  }, 180_000);
});
