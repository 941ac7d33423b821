import { ALERT_LIVE_EVENT, LIVE_PATH, alertAck, alertList, carZonesUpdate, liveTicket, zoneAdd } from '@fleet/contract';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callAs, createSignedInApp, fleet, login, type SignedInApp } from './helper.js';
import { openLive, secondInstance, sendBatch, terminalA } from './telemetry-support.js';

/**
 * The header's unacknowledged count, live (docs/zones.md "Alerts"): the live stream with
 * `?topics=alerts` sends the count at once and again whenever an alert of the caller's company is added
 * or acknowledged, on any instance: two app instances on one database (PostgreSQL: each its own pool
 * and LISTEN connection; PGlite: a second app in the same process), the alerts made by the ingest on
 * one, acknowledged on the other, the streams open on both.
 */
let t: SignedInApp;
let two: Awaited<ReturnType<typeof secondInstance>>;
let other: FastifyInstance;
let bases: string[];

beforeAll(async () => {
  t = await createSignedInApp();
  two = await secondInstance(t);
  ({ other, bases } = two);
});
afterAll(async () => {
  await two?.close();
  await t?.close();
});

interface CountStream {
  /** Resolves with the events once one says `n`; fails when the stream ends first or after 20 s. */
  count(n: number): Promise<{ event: string; data: unknown }[]>;
  events: { event: string; data: unknown }[];
  close(): void;
}

/** Opens the alert-count stream (a ticket, as the console's EventSource does) and reads its events. */
async function openCounts(base: string, token: string, topics = 'alerts'): Promise<CountStream> {
  const ticket = (await callAs(t.app, token, liveTicket, {})).body.ticket;
  const live = await openLive(`${base}${LIVE_PATH}?topics=${topics}&ticket=${encodeURIComponent(ticket)}`);
  const { events } = live;
  return {
    events,
    close: live.close,
    count: (n) =>
      live.until(() => {
        const last = events.filter((e) => e.event === ALERT_LIVE_EVENT).at(-1);
        if ((last?.data as { unacknowledged?: number } | undefined)?.unacknowledged === n) return events;
        if (live.finished()) throw new Error(`the stream ended before the count ${n}`);
        return undefined;
      }, `the count ${n}`),
  };
}

describe('the live alert count', () => {
  it('drops on every instance’s streams when an alert is acknowledged on one, and rises when one arrives', async () => {
    const zone = (
      await t.call(
        zoneAdd,
        { info: { name: '本社', shape: 'circle', lat: 35.68, lng: 139.76, radius_m: 500 } },
        'adminA',
      )
    ).body.zone_id;
    await t.call(carZonesUpdate, { car_id: fleet.A.car_id, zone_ids: [zone] }, 'adminA');
    const managerOnSecond = await login(other, 'managerA');
    const streams = [await openCounts(bases[0]!, t.tokens.staffA), await openCounts(bases[1]!, managerOnSecond)];
    const companyB = await openCounts(bases[1]!, t.tokens.adminB);
    try {
      for (const s of [...streams, companyB]) await s.count(0);
      // Only the count: no snapshot, no positions.
      expect(streams[1]!.events.map((e) => e.event)).toEqual([ALERT_LIVE_EVENT]);

      // A drive through the zone, reported to the first instance: an enter and an exit.
      const records = Array.from({ length: 20 }, (_, i) => ({
        type: 'gps' as const,
        time: new Date(Date.parse('2026-03-01T01:00:00Z') + i * 10_000).toISOString(),
        lat: 35.68 - 0.009 + i * 0.001,
        lng: 139.76,
        speed: 40,
      }));
      expect((await sendBatch(t.app, terminalA, { seq: 7001, records })).statusCode).toBe(200);
      for (const s of streams) await s.count(2);

      // Acknowledged on the second instance: the first instance's stream sees the count drop too.
      const [first] = (await callAs(other, managerOnSecond, alertList, { unacknowledged: true })).body.list;
      expect((await callAs(other, managerOnSecond, alertAck, { alert_id: first!.alert_id })).status).toBe(200);
      for (const s of streams) await s.count(1);

      // Company B's stream heard nothing of company A's alerts.
      expect(companyB.events.filter((e) => e.event === ALERT_LIVE_EVENT).map((e) => e.data)).toEqual([
        { unacknowledged: 0 },
      ]);
    } finally {
      for (const s of [...streams, companyB]) s.close();
    }
  });

  it('sends positions and the count together with topics=states,alerts', async () => {
    const s = await openCounts(bases[1]!, t.tokens.adminA, 'states,alerts');
    try {
      await s.count(1);
      expect(s.events.map((e) => e.event)).toEqual(['snapshot', ALERT_LIVE_EVENT]);
    } finally {
      s.close();
    }
  });
});
