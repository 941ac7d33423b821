import { OSMAND_PATH, type DeviceBatchResponse, type DeviceRecordInput } from '@fleet/contract';
import type { BatchBody, TerminalCredentials, TransportReply } from './transport.js';

const KMH_PER_KNOT = 1.852;

/**
 * The simulated car's records as Traccar Client would send them (docs/device-protocol.md §10):
 * one `GET /device/osmand/<password>?id=<IMEI>&lat=..&lon=..&timestamp=<ms>&speed=<knots>…` per
 * GPS fix, with the battery level and ignition last reported before it. Other records have no
 * OsmAnd field and stay in the car. The answer is turned into a batch reply (no commands:
 * OsmAnd has no command channel), so the terminal logic stays the same.
 */
export function osmandQueries(records: readonly DeviceRecordInput[]): URLSearchParams[] {
  let battery: number | undefined;
  let ignition: boolean | undefined;
  const out: URLSearchParams[] = [];
  for (const r of records) {
    if (r.type === 'battery' && typeof r.percentage === 'number') battery = r.percentage;
    if (r.type === 'engine' && r.running) ignition = r.running === 'on';
    if (r.type !== 'gps') continue;
    const q = new URLSearchParams({ lat: String(r.lat), lon: String(r.lng), timestamp: String(Date.parse(r.time)) });
    if (typeof r.speed === 'number') q.set('speed', (r.speed / KMH_PER_KNOT).toFixed(2));
    if (typeof r.heading === 'number') q.set('bearing', String(r.heading));
    if (typeof r.accuracy === 'number') q.set('accuracy', String(r.accuracy));
    if (battery !== undefined) q.set('batt', String(Math.round(battery)));
    if (ignition !== undefined) q.set('ignition', String(ignition));
    out.push(q);
  }
  return out;
}

/** Sends a batch as OsmAnd requests; rejects on a network failure (the batch is resent: each fix is stored once). */
export async function sendOsmand(
  baseUrl: string,
  creds: TerminalCredentials,
  batch: BatchBody,
  timeoutMs: number,
): Promise<TransportReply> {
  let accepted = 0;
  const rejected: DeviceBatchResponse['rejected'] = [];
  for (const [index, q] of osmandQueries(batch.records).entries()) {
    q.set('id', creds.car_data_id);
    const url = new URL(`${OSMAND_PATH}/${encodeURIComponent(creds.password)}?${q}`, baseUrl);
    const res = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
    const text = await res.text();
    if (res.status === 401 || res.status === 403 || res.status === 429 || res.status >= 500)
      return { status: res.status, body: text };
    if (res.status === 200) accepted++;
    else rejected.push({ index, reason: text.slice(0, 200) });
  }
  const body: DeviceBatchResponse = {
    seq: batch.seq,
    accepted,
    rejected,
    duplicate: false,
    commands: [],
    server_time: new Date().toISOString(),
  };
  return { status: 200, body };
}
