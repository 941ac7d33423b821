import {
  alertAck,
  alertCount,
  alertList,
  carEvents,
  carZones,
  carZonesUpdate,
  zoneAdd,
  zoneDelete,
  zoneList,
  zoneMessages,
  zoneUpdate,
} from '@fleet/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { accounts, callAs, companyB, createSignedInApp, fleet, login, unchecked, type SignedInApp } from './helper.js';
import { poll, report, reserveEngineOk } from './engine-support.js';
import { reply, sendBatch, terminalA } from './telemetry-support.js';

/**
 * Zones (docs/zones.md): the library's calls, assignment, judgement of what a terminal reports, the
 * timeline and the alert inbox, acknowledged on one instance and seen on another.
 */
let t: SignedInApp;
beforeAll(async () => {
  t = await createSignedInApp();
});
afterAll(() => t?.close());

const circle = { name: '本社', shape: 'circle' as const, lat: 35.681236, lng: 139.767125, radius_m: 500 };
const square = {
  name: '倉庫',
  shape: 'polygon' as const,
  color: '#1971c2',
  points: [
    { lat: 35.6, lng: 139.6 },
    { lat: 35.6, lng: 139.61 },
    { lat: 35.61, lng: 139.61 },
    { lat: 35.61, lng: 139.6 },
  ],
};
const zoneCount = async () =>
  Number(
    (
      await t.db
        .selectFrom('zones')
        .select((e) => e.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

describe('zone calls', () => {
  it('adds, lists, updates and deletes a company’s circle and polygon', async () => {
    const c = await t.call(zoneAdd, { info: circle }, 'managerA');
    const p = await t.call(zoneAdd, { info: square }, 'managerA');
    expect(c.status).toBe(200);
    const list = (await t.call(zoneList, {}, 'staffA')).body.list;
    expect(list.map((z) => [z.name, z.shape, z.radius_m, z.points?.length ?? null])).toEqual([
      ['倉庫', 'polygon', null, 4],
      ['本社', 'circle', 500, null],
    ]);
    expect((await t.call(zoneList, {}, 'adminB')).body.list).toEqual([]);
    expect(
      (await t.call(zoneUpdate, { zone_id: c.body.zone_id, info: { ...circle, radius_m: 800 } }, 'adminA')).status,
    ).toBe(200);
    expect((await t.call(zoneList, {}, 'staffA')).body.list.find((z) => z.zone_id === c.body.zone_id)?.radius_m).toBe(
      800,
    );
    // Another company's zone is not found; a common account may not change zones.
    expect((await t.call(zoneDelete, { zone_id: p.body.zone_id }, 'adminB')).status).toBe(404);
    expect((await t.call(zoneDelete, { zone_id: p.body.zone_id }, 'staffA')).status).toBe(403);
    expect((await t.call(zoneDelete, { zone_id: p.body.zone_id }, 'adminA')).status).toBe(200);
    await t.call(zoneDelete, { zone_id: c.body.zone_id }, 'adminA');
    expect(await zoneCount()).toBe(0);
  });

  it('answers bad shapes 400 with a Japanese message per field, and stores nothing', async () => {
    const bad = [
      [{ ...circle, radius_m: 0 }, 'info.radius_m', '半径は1m以上100km以下で入力してください'],
      [{ ...circle, radius_m: 100_001 }, 'info.radius_m', '半径は1m以上100km以下で入力してください'],
      [{ ...circle, lat: 200 }, 'info.lat', zoneMessages.latitude],
      [{ ...square, points: square.points.slice(0, 2) }, 'info.points', zoneMessages.tooFewPoints],
      [
        { ...square, points: [square.points[0], square.points[2], square.points[1], square.points[3]] },
        'info.points',
        zoneMessages.selfIntersecting,
      ],
    ] as const;
    for (const [info, field, message] of bad) {
      const r = await t.call(zoneAdd, unchecked({ info }), 'adminA');
      expect(r.status, field).toBe(400);
      expect(r.error.errors).toEqual({ [field]: message });
    }
    // The super admin names the company; a company account cannot name another one.
    expect((await t.call(zoneAdd, { info: circle }, 'superAdmin')).error.errors).toEqual({
      company_id: zoneMessages.companyRequired,
    });
    expect((await t.call(zoneAdd, { info: { ...circle, company_id: companyB } }, 'adminA')).status).toBe(403);
    expect(await zoneCount()).toBe(0);
  });

  it('assigns zones of the vehicle’s company only', async () => {
    const own = (await t.call(zoneAdd, { info: circle }, 'adminA')).body.zone_id;
    const other = (await t.call(zoneAdd, { info: circle }, 'adminB')).body.zone_id;
    const refused = await t.call(carZonesUpdate, { car_id: fleet.A.car_id, zone_ids: [own, other] }, 'adminA');
    expect(refused.status).toBe(400);
    expect((await t.call(carZones, { car_id: fleet.A.car_id }, 'staffA')).body.zones).toEqual([]);
    expect((await t.call(carZonesUpdate, { car_id: fleet.A.car_id, zone_ids: [own] }, 'adminA')).body.count).toBe(1);
    expect((await t.call(carZones, { car_id: fleet.A.car_id }, 'staffA')).body.zones.map((z) => z.zone_id)).toEqual([
      own,
    ]);
    expect((await t.call(carZones, { car_id: fleet.A.car_id }, 'adminB')).status).toBe(404);
    await t.call(carZonesUpdate, { car_id: fleet.A.car_id, zone_ids: [] }, 'adminA');
    await t.call(zoneDelete, { zone_id: own }, 'adminA');
    await t.call(zoneDelete, { zone_id: other }, 'adminB');
  });
});

describe('judgement at ingest, the timeline and the inbox', () => {
  // North through the circle's centre from 1 km south, a point every 100 m of latitude (about 111 m).
  const track = Array.from({ length: 20 }, (_, i) => ({
    type: 'gps',
    time: new Date(Date.parse('2026-01-15T01:00:00Z') + i * 10_000).toISOString(),
    lat: circle.lat - 0.009 + i * 0.001,
    lng: circle.lng,
    speed: 40,
  }));

  it('records one enter and one exit, in the inbox and the timeline', async () => {
    const zone = (await t.call(zoneAdd, { info: circle }, 'adminA')).body.zone_id;
    await t.call(carZonesUpdate, { car_id: fleet.A.car_id, zone_ids: [zone] }, 'adminA');
    // In two batches, the crossing of the boundary split between them.
    expect(reply(await sendBatch(t.app, terminalA, { seq: 501, records: track.slice(0, 6) })).accepted).toBe(6);
    expect(reply(await sendBatch(t.app, terminalA, { seq: 502, records: track.slice(6) })).accepted).toBe(14);

    const events = (
      await t.call(carEvents, { car_data_id: fleet.A.car_data_id, from: '2026-01-15', to: '2026-01-15' }, 'staffA')
    ).body.events;
    // 500 m is about 0.0045° of latitude: inside from i = 5 (0.004° south) to i = 13 (0.004° north).
    expect(events.map((e) => [e.type, e.zone_name, e.at])).toEqual([
      ['zone_enter', '本社', track[5]!.time],
      ['zone_exit', '本社', track[14]!.time],
    ]);
    const list = (await t.call(alertList, { unacknowledged: true }, 'staffA')).body;
    expect(list.list.map((a) => [a.kind, a.car_id, a.zone_name])).toEqual([
      ['zone_exit', fleet.A.car_id, '本社'],
      ['zone_enter', fleet.A.car_id, '本社'],
    ]);
    expect(list.unacknowledged).toBe(2);
    expect((await t.call(alertList, {}, 'adminB')).body.list).toEqual([]);
    expect((await t.call(carEvents, { car_data_id: fleet.A.car_data_id }, 'adminB')).status).toBe(404);
  });

  it('acknowledges once, across two app instances on one database', async () => {
    const second = await buildApp({ db: t.db, config: t.config, logger: false });
    await second.ready();
    try {
      const managerOnSecond = await login(second, 'managerA');
      const [first] = (await t.call(alertList, { unacknowledged: true }, 'staffA')).body.list;
      const [a, b] = await Promise.all([
        t.call(alertAck, { alert_id: first!.alert_id }, 'staffA'),
        callAs(second, managerOnSecond, alertAck, { alert_id: first!.alert_id }),
      ]);
      // Both answer the one acknowledgement that stands.
      expect(a.body.acked_by).toBe(b.body.acked_by);
      expect(a.body.acked_at).toBe(b.body.acked_at);
      expect([accounts.staffA.account_id, accounts.managerA.account_id]).toContain(a.body.acked_by);
      expect((await callAs(second, managerOnSecond, alertCount, {})).body.unacknowledged).toBe(1);
      expect((await t.call(alertCount, {}, 'adminA')).body.unacknowledged).toBe(1);
      const acked = (await callAs(second, managerOnSecond, alertList, {})).body.list.find(
        (x) => x.alert_id === first!.alert_id,
      );
      expect(acked?.acked_by_name).toBeTruthy();
      expect((await t.call(alertAck, { alert_id: first!.alert_id }, 'adminB')).status).toBe(404);
    } finally {
      await second.close();
    }
  });

  it('records a command the terminal reports as failed', async () => {
    const command = await reserveEngineOk(t.app, t.tokens.managerA, fleet.A.car_data_id, 0);
    expect(await poll(t.app, terminalA)).toContain(command.command_id);
    await report(t.app, terminalA, command.command_id, false, 'リレー応答なし');
    const [failed] = (await t.call(alertList, { unacknowledged: true }, 'staffA')).body.list.filter(
      (a) => a.kind === 'command_failed',
    );
    expect(failed).toMatchObject({
      car_id: fleet.A.car_id,
      what: 'エンジン始動の許可に失敗しました（リレー応答なし）',
    });
    const events = (await t.call(carEvents, { car_data_id: fleet.A.car_data_id }, 'staffA')).body.events;
    expect(events.filter((e) => e.type === 'command').map((e) => e.what)).toEqual(['エンジン始動の許可：失敗しました']);
  });

  it('leaves a zone on a batch reported far from every zone, and keeps its state through a batch without GPS', async () => {
    const zone = (await t.call(zoneAdd, { info: { ...circle, name: '営業所' } }, 'adminA')).body.zone_id;
    await t.call(carZonesUpdate, { car_id: fleet.A.car_id, zone_ids: [zone] }, 'adminA');
    const at = (s: number) => new Date(Date.parse('2026-01-16T01:00:00Z') + s * 10_000).toISOString();
    const inside = [0, 1].map((i) => ({ type: 'gps', time: at(i), lat: circle.lat, lng: circle.lng, speed: 0 }));
    expect(reply(await sendBatch(t.app, terminalA, { seq: 601, records: inside })).accepted).toBe(2);
    const battery = [{ type: 'battery', time: at(2), voltage: 12.5, percentage: 80 }];
    expect(reply(await sendBatch(t.app, terminalA, { seq: 602, records: battery })).accepted).toBe(1);
    // 20 km north: near no zone of the company, so the batch's search finds none; the state alone says it left.
    const far = [3, 4].map((i) => ({ type: 'gps', time: at(i), lat: circle.lat + 0.18, lng: circle.lng, speed: 60 }));
    expect(reply(await sendBatch(t.app, terminalA, { seq: 603, records: far })).accepted).toBe(2);
    const events = (
      await t.call(carEvents, { car_data_id: fleet.A.car_data_id, from: '2026-01-16', to: '2026-01-16' }, 'staffA')
    ).body.events.filter((e) => e.zone_id === zone);
    expect(events.map((e) => [e.type, e.at])).toEqual([
      ['zone_enter', at(0)],
      ['zone_exit', at(3)],
    ]);
  });
});
