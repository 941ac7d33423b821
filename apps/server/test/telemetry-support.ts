import type { DeviceBatchResponse, DeviceRecordInput } from '@fleet/contract';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { sql } from 'kysely';
import { expect, inject } from 'vitest';
import { buildApp } from '../src/app.js';
import type { Config } from '../src/config.js';
import { openDatabase, type Database, type Db } from '../src/db/database.js';
import { urlForDatabase } from './databases.js';
import { fleet } from './helper.js';

/** Helpers of the telemetry tests: terminals of the fixture world talking to the gateway. */
export const TERMINAL_PASSWORD = 'terminal-secret';
export const terminalA = { id: fleet.A.car_device_id, imei: fleet.A.car_data_id };
export const terminalB = { id: fleet.B.car_device_id, imei: fleet.B.car_data_id };

export const basic = (id: string, password = TERMINAL_PASSWORD) =>
  `Basic ${Buffer.from(`${id}:${password}`).toString('base64')}`;

export function sendBatch(
  app: FastifyInstance,
  terminal: { id: string },
  body: { seq: number; records: (DeviceRecordInput | Record<string, unknown>)[] } | Record<string, unknown>,
  password = TERMINAL_PASSWORD,
): Promise<LightMyRequestResponse> {
  return app.inject({
    method: 'POST',
    url: '/device/v1/batch',
    payload: body,
    headers: { authorization: basic(terminal.id, password) },
  });
}
export const reply = (res: LightMyRequestResponse) => res.json<DeviceBatchResponse>();

/** A time `minutes` before a fixed recent moment, so records are never "in the future". */
const BASE = Date.parse('2026-01-15T03:00:00Z');
export const at = (minutes: number, seconds = 0) => new Date(BASE + minutes * 60_000 + seconds * 1000).toISOString();

export async function count(
  db: Db,
  table:
    | 'gps_logs'
    | 'engine_logs'
    | 'connection_logs'
    | 'battery_logs'
    | 'sensor_logs'
    | 'obd2_logs'
    | 'error_logs'
    | 'device_batches',
  imei: string,
) {
  const row = await db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('car_data_id', '=', imei)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export const latest = (db: Db, imei: string) =>
  db.selectFrom('device_latest_state').selectAll().where('car_data_id', '=', imei).executeTakeFirst();

/** An open live stream (SSE) and the events read from it so far. */
export interface LiveReader {
  events: { event: string; data: unknown }[];
  /** Whether the stream is over: ended by the server, cut, or closed by the test. */
  finished: () => boolean;
  /**
   * Resolves with what `found` returns once it returns something, checked now and on every event and at
   * the end; fails when `found` throws, or after 20 s.
   */
  until: <T>(found: () => T | undefined, what: string) => Promise<T>;
  close: () => void;
}

/** Opens the live stream at `url` (a 200 expected) and reads its events as they come. */
export async function openLive(url: string, headers: Record<string, string> = {}): Promise<LiveReader> {
  const controller = new AbortController();
  const res = await fetch(url, { headers, signal: controller.signal });
  expect(res.status).toBe(200);
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  const events: LiveReader['events'] = [];
  const waiting = new Set<() => void>();
  let buffer = '';
  let finished = false;
  void (async () => {
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        buffer += value;
        for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const event = /^event: (.*)$/m.exec(block)?.[1];
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (event && data) events.push({ event, data: JSON.parse(data) });
          for (const w of waiting) w();
        }
      }
    } catch {
      // Aborted by the test, or the connection was cut: the stream is over either way.
    } finally {
      finished = true;
      for (const w of waiting) w();
    }
  })();
  const until = <T>(found: () => T | undefined, what: string) =>
    new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${what}: not within 20 s`)), 20_000);
      const check = () => {
        let v: T | undefined;
        try {
          v = found();
        } catch (e) {
          clearTimeout(timer);
          waiting.delete(check);
          reject(e as Error);
          return;
        }
        if (v === undefined) return;
        clearTimeout(timer);
        waiting.delete(check);
        resolve(v);
      };
      waiting.add(check);
      check();
    });
  return { events, finished: () => finished, until, close: () => controller.abort() };
}

/** Where an app listens, on a free port of this machine. */
async function baseOf(app: FastifyInstance) {
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  return `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
}

/**
 * A second app instance on the test app's database (PostgreSQL: its own pool and LISTEN connection;
 * PGlite: a second app in the same process), both listening: `bases` is [the first, the second].
 */
export async function secondInstance(t: { app: FastifyInstance; db: Db; config: Config }) {
  let db = t.db;
  let second: Database | undefined;
  if (inject('databaseUrl')) {
    const { rows } = await sql<{ name: string }>`SELECT current_database() AS name`.execute(t.db);
    second = await openDatabase({ url: urlForDatabase(inject('databaseUrl'), rows[0]!.name), poolSize: 2 });
    db = second.db;
  }
  const other = await buildApp({ db, config: t.config, logger: false });
  await other.ready();
  const bases = [await baseOf(t.app), await baseOf(other)];
  const close = async () => {
    await other.close();
    await second?.close();
  };
  return { other, second, bases, close };
}
