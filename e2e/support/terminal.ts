import type { APIRequestContext } from '@playwright/test';

/** The demo terminals whose id is not an IMEI (JT/T 808: its phone number; H02: a 10-digit id). */
const idsOfTheirOwn: Record<number, string> = { 17: '013584091017', 18: '4210170018' };

/** Demo terminals of the seed (apps/server/src/seed/demo-data.ts). */
export const demoTerminal = (n: number) => {
  const nn = String(n).padStart(2, '0');
  return {
    car_device_id: `D-demo-${nn}`,
    password: `terminal-secret-${nn}`,
    imei: idsOfTheirOwn[n] ?? `35840910${String(1000000 + (n - 1) * 7919).slice(-7)}`,
    car_id: `C${String(n).padStart(6, '0')}`,
  };
};

let seq = Date.now();

/**
 * Reports a batch through the real device gateway, as a terminal would. A fixed `batchSeq` stores the
 * batch once however often a retried test sends it (the gateway is idempotent on IMEI + seq).
 */
export async function sendBatch(
  request: APIRequestContext,
  terminal: { car_device_id: string; password: string },
  records: Record<string, unknown>[],
  batchSeq = seq++,
) {
  const auth = Buffer.from(`${terminal.car_device_id}:${terminal.password}`).toString('base64');
  const res = await request.post('/device/v1/batch', {
    headers: { authorization: `Basic ${auth}` },
    data: { seq: batchSeq, records },
  });
  if (!res.ok()) throw new Error(`batch refused: ${res.status()} ${await res.text()}`);
  return res.json() as Promise<{
    accepted: number;
    rejected: unknown[];
    commands: { id: number; cmd_type: string; cmd_info: Record<string, unknown> }[];
  }>;
}

/** A short drive: GPS points a minute apart from `start`, plus engine, battery and sensor readings. */
export function drive(start: Date, points: number, engine: 'on' | 'off' = 'on') {
  const records: Record<string, unknown>[] = [
    { type: 'engine', time: start.toISOString(), running: engine, engine_line: 'connected' },
    { type: 'connection', time: start.toISOString(), state: 'connected' },
  ];
  for (let i = 0; i < points; i++) {
    const time = new Date(start.getTime() + i * 60_000).toISOString();
    records.push({
      type: 'gps',
      time,
      lat: 35.6812 + i * 0.002,
      lng: 139.7671 + i * 0.0015,
      speed: 30 + i,
      heading: 45,
      satellites: 9,
      accuracy: 5,
    });
    records.push({ type: 'battery', time, voltage: 12.6 - i * 0.01, percentage: 90 - i });
    records.push({ type: 'sensor', time, vibration: 0.2 + (i % 3) * 0.1, readings: { temperature: 21 + i } });
  }
  return records;
}
