import { LIVE_PATH, liveTicket, type LiveSnapshot, type LiveState } from '@fleet/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSignedInApp, type FixtureAccount, type SignedInApp } from './helper.js';
import { at, sendBatch, terminalA, terminalB } from './telemetry-support.js';

let t: SignedInApp;
let base: string;

beforeAll(async () => {
  t = await createSignedInApp(['staffA', 'superAdmin']);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address();
  base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  await sendBatch(t.app, terminalA, { seq: 1, records: [{ type: 'gps', time: at(0), lat: 35.6, lng: 139.7 }] });
});
afterAll(() => t?.close());

interface SseEvent {
  event: string;
  data: unknown;
}

/** Reads a live stream event by event. */
async function openStream(url: string, headers: Record<string, string> = {}) {
  const controller = new AbortController();
  const res = await fetch(url, { headers, signal: controller.signal });
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  const next = async (): Promise<SseEvent> => {
    for (;;) {
      const end = buffer.indexOf('\n\n');
      if (end >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const event = /^event: (.*)$/m.exec(block)?.[1];
        const data = /^data: (.*)$/m.exec(block)?.[1];
        if (event && data) return { event, data: JSON.parse(data) };
        continue;
      }
      const { value, done } = await reader.read();
      if (done) throw new Error('stream ended');
      buffer += value;
    }
  };
  return { res, next, close: () => controller.abort() };
}

const ticketFor = async (who: FixtureAccount) => (await t.call(liveTicket, {}, who)).body;

describe(`GET ${LIVE_PATH}`, () => {
  it('with a ticket: a snapshot of the visible vehicles, then their changes only', async () => {
    const { ticket, expires_in } = await ticketFor('staffA');
    expect(expires_in).toBe(60);
    const stream = await openStream(`${base}${LIVE_PATH}?ticket=${encodeURIComponent(ticket)}`);
    try {
      expect(stream.res.status).toBe(200);
      expect(stream.res.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
      const snapshot = await stream.next();
      expect(snapshot.event).toBe('snapshot');
      expect((snapshot.data as LiveSnapshot).states).toEqual([
        expect.objectContaining({ car_data_id: terminalA.imei, car_id: 'car-a', lat: 35.6 }),
      ]);

      // Company B's terminal first: it must not reach a company A stream.
      await sendBatch(t.app, terminalB, { seq: 1, records: [{ type: 'gps', time: at(1), lat: 35.1, lng: 139.1 }] });
      await sendBatch(t.app, terminalA, {
        seq: 2,
        records: [
          { type: 'engine', time: at(1), running: 'on' },
          { type: 'gps', time: at(1), lat: 35.61, lng: 139.71, speed: 40 },
        ],
      });
      const change = await stream.next();
      expect(change.event).toBe('state');
      expect(change.data as LiveState).toMatchObject({
        car_data_id: terminalA.imei,
        car_id: 'car-a',
        lat: 35.61,
        speed: 40,
        engine_running: 'on',
      });
    } finally {
      stream.close();
    }
  });

  it('a ticket works once', async () => {
    const { ticket } = await ticketFor('staffA');
    const first = await openStream(`${base}${LIVE_PATH}?ticket=${ticket}`);
    first.close();
    const again = await fetch(`${base}${LIVE_PATH}?ticket=${ticket}`);
    expect(again.status).toBe(401);
  });

  it('takes the Authorization header too, and the super admin sees every terminal', async () => {
    const stream = await openStream(`${base}${LIVE_PATH}`, { authorization: `Bearer ${t.tokens.superAdmin}` });
    try {
      const snapshot = await stream.next();
      expect((snapshot.data as LiveSnapshot).states.map((s) => s.car_data_id).sort()).toEqual(
        [terminalA.imei, terminalB.imei].sort(),
      );
      await sendBatch(t.app, terminalB, { seq: 2, records: [{ type: 'battery', time: at(2), voltage: 12.2 }] });
      expect((await stream.next()).data).toMatchObject({
        car_data_id: terminalB.imei,
        car_id: 'car-b',
        battery_voltage: 12.2,
      });
    } finally {
      stream.close();
    }
  });

  it('refuses a stream without credentials or with a bad ticket', async () => {
    expect((await fetch(`${base}${LIVE_PATH}`)).status).toBe(401);
    expect((await fetch(`${base}${LIVE_PATH}?ticket=nonsense`)).status).toBe(401);
    expect((await t.call(liveTicket, {})).status).toBe(401);
  });
});
