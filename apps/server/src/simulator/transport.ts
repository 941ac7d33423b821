import { DEVICE_BATCH_PATH, type DeviceRecordInput, type TerminalProtocol } from '@fleet/contract';
import { sendOsmand } from './osmand-transport.js';

/** What a terminal needs to log in to the gateway. */
export interface TerminalCredentials {
  car_device_id: string;
  password: string;
  car_data_id: string;
  /** What it speaks; absent: our JSON protocol. */
  protocol?: TerminalProtocol;
}
export interface BatchBody {
  seq: number;
  records: DeviceRecordInput[];
}
export interface TransportReply {
  status: number;
  body: unknown;
}
/** Sends one batch; rejects on a network failure (the terminal then retries the same seq). */
export type Transport = (creds: TerminalCredentials, batch: BatchBody) => Promise<TransportReply>;

export const basicAuth = (c: TerminalCredentials) =>
  `Basic ${Buffer.from(`${c.car_device_id}:${c.password}`).toString('base64')}`;

/** The real protocol over HTTP, as a terminal in a car speaks it. */
export function httpTransport(baseUrl: string, timeoutMs = 15_000): Transport {
  const url = new URL(DEVICE_BATCH_PATH, baseUrl).toString();
  return async (creds, batch) => {
    if (creds.protocol === 'osmand') return sendOsmand(baseUrl, creds, batch, timeoutMs);
    const res = await fetch(url, {
      method: 'POST',
      headers: { authorization: basicAuth(creds), 'content-type': 'application/json' },
      body: JSON.stringify(batch),
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await res.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // Not JSON (a proxy's error page): keep the text.
    }
    return { status: res.status, body };
  };
}
