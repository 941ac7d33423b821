import type { DeviceBatchResponse, DeviceRecordInput } from '@fleet/contract';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { Db } from '../src/db/database.js';
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
