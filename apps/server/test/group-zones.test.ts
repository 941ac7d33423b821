import {
  areaMessages,
  areaTemplateApplyCars,
  areaTemplateUpdate,
  carDelete,
  carEvents,
  carGroupsUpdate,
  carZones,
  carZonesUpdate,
  groupAdd,
  groupCarsAdd,
  groupMessages,
  groupZones,
  groupZonesUpdate,
  validationMessages,
  zoneAdd,
  zoneCarsAdd,
  zoneList,
  zoneMessages,
} from '@fleet/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSignedInApp, fleet, unchecked, type SignedInApp } from './helper.js';
import { reply, sendBatch, terminalA } from './telemetry-support.js';

/**
 * Zones assigned through groups and the vehicle list's bulk actions (docs/zones.md "Assignment",
 * docs/groups.md): a group's zones judged at ingest for its vehicles, the bulk zone assignment and the
 * bulk application of an area template.
 */
let t: SignedInApp;
beforeAll(async () => {
  t = await createSignedInApp();
  await t.db
    .insertInto('cars')
    .values([
      { car_id: 'car-a2', car_number: '品川 300 あ 12-34', company_id: fleet.A.company_id, car_status: 0 },
      { car_id: 'car-a3', car_number: '品川 300 あ 56-78', company_id: fleet.A.company_id, car_status: 0 },
    ])
    .execute();
});
afterAll(() => t?.close());

const circle = { name: '本社', shape: 'circle' as const, lat: 35.681236, lng: 139.767125, radius_m: 500 };
/** North through the circle's centre from 1 km south, a point every 0.001° of latitude, from `start`. */
const track = (start: string) =>
  Array.from({ length: 20 }, (_, i) => ({
    type: 'gps',
    time: new Date(Date.parse(start) + i * 10_000).toISOString(),
    lat: circle.lat - 0.009 + i * 0.001,
    lng: circle.lng,
    speed: 40,
  }));
const eventsOn = async (day: string) =>
  (await t.call(carEvents, { car_data_id: fleet.A.car_data_id, from: day, to: day }, 'staffA')).body.events
    .filter((e) => e.type === 'zone_enter' || e.type === 'zone_exit')
    .map((e) => [e.type, e.zone_name]);
const carZonePairs = async (carIds: string[]) =>
  (await t.db.selectFrom('car_zones').select(['car_id', 'zone_id']).where('car_id', 'in', carIds).execute())
    .map((r) => `${r.car_id}:${r.zone_id}`)
    .sort();

describe('zones through groups', () => {
  it('counts on the zone list the vehicles judged against a zone, its own and through groups, each once', async () => {
    const group_id = (await t.call(groupAdd, { info: { name: '数える営業所' } }, 'adminA')).body.group_id;
    const zone = (await t.call(zoneAdd, { info: { ...circle, name: '数えるゾーン' } }, 'adminA')).body.zone_id;
    const count = async () =>
      (await t.call(zoneList, {}, 'staffA')).body.list.find((z) => z.zone_id === zone)!.car_count;
    expect(await count()).toBe(0);
    await t.call(groupCarsAdd, { group_id, car_ids: ['car-a2', 'car-a3'] }, 'adminA');
    await t.call(groupZonesUpdate, { group_id, zone_ids: [zone] }, 'adminA');
    expect(await count()).toBe(2);
    // One of them has it also of its own, another vehicle only of its own.
    await t.call(zoneCarsAdd, { zone_ids: [zone], car_ids: ['car-a2', fleet.A.car_id] }, 'adminA');
    expect(await count()).toBe(3);
    await t.call(groupZonesUpdate, { group_id, zone_ids: [] }, 'adminA');
    expect(await count()).toBe(2);
    for (const car_id of ['car-a2', fleet.A.car_id]) await t.call(carZonesUpdate, { car_id, zone_ids: [] }, 'adminA');
    expect(await count()).toBe(0);
  });

  it('judges a vehicle against its groups’ zones, and stops when it leaves the group', async () => {
    const group_id = (await t.call(groupAdd, { info: { name: '丸の内営業所' } }, 'adminA')).body.group_id;
    const zone = (await t.call(zoneAdd, { info: circle }, 'adminA')).body.zone_id;
    expect((await t.call(groupCarsAdd, { group_id, car_ids: [fleet.A.car_id] }, 'adminA')).status).toBe(200);
    const set = await t.call(groupZonesUpdate, { group_id, zone_ids: [zone, zone] }, 'managerA');
    expect([set.status, set.body.count]).toEqual([200, 1]);
    expect((await t.call(groupZones, { group_id }, 'staffA')).body.zones.map((z) => z.zone_id)).toEqual([zone]);
    // Not one of the vehicle's own zones: one it has through the group.
    const carView = (await t.call(carZones, { car_id: fleet.A.car_id }, 'staffA')).body;
    expect(carView.zones).toEqual([]);
    expect(carView.group_zones).toEqual([{ zone_id: zone, name: '本社', group_id, group_name: '丸の内営業所' }]);

    const first = track('2026-02-10T01:00:00Z');
    expect(reply(await sendBatch(t.app, terminalA, { seq: 601, records: first.slice(0, 8) })).accepted).toBe(8);
    // Inside the zone when it leaves the group: its state there goes, and nothing more is judged.
    expect(
      await t.db.selectFrom('car_zone_states').select('zone_id').where('zone_id', '=', zone).execute(),
    ).toHaveLength(1);
    await t.call(carGroupsUpdate, { car_id: fleet.A.car_id, group_ids: [] }, 'adminA');
    expect(await t.db.selectFrom('car_zone_states').select('zone_id').where('zone_id', '=', zone).execute()).toEqual(
      [],
    );
    expect(reply(await sendBatch(t.app, terminalA, { seq: 602, records: first.slice(8) })).accepted).toBe(12);
    expect(await eventsOn('2026-02-10')).toEqual([['zone_enter', '本社']]);

    // Back in the group: the next drive is judged again (the index was rebuilt for the change).
    await t.call(groupCarsAdd, { group_id, car_ids: [fleet.A.car_id] }, 'adminA');
    const second = track('2026-02-11T01:00:00Z');
    expect(reply(await sendBatch(t.app, terminalA, { seq: 603, records: second })).accepted).toBe(20);
    expect(await eventsOn('2026-02-11')).toEqual([
      ['zone_enter', '本社'],
      ['zone_exit', '本社'],
    ]);
    await t.call(carGroupsUpdate, { car_id: fleet.A.car_id, group_ids: [] }, 'adminA');
  });

  it('refuses another company’s zone in Japanese and stores nothing', async () => {
    const group_id = (await t.call(groupAdd, { info: { name: '港北' } }, 'adminA')).body.group_id;
    const other = (await t.call(zoneAdd, { info: circle }, 'adminB')).body.zone_id;
    const res = await t.call(groupZonesUpdate, { group_id, zone_ids: [other] }, 'adminA');
    expect([res.status, res.error.errors?.zone_ids]).toEqual([400, zoneMessages.otherCompanyGroup]);
    const bad = await t.call(groupZonesUpdate, unchecked({ group_id, zone_ids: 'z' }), 'adminA');
    expect([bad.status, bad.error.errors?.zone_ids]).toEqual([400, validationMessages.invalid]);
    expect(await t.db.selectFrom('group_zones').select('zone_id').where('group_id', '=', group_id).execute()).toEqual(
      [],
    );
  });

  it('lets only the company’s unlimited editors change a group’s zones', async () => {
    const group_id = (await t.call(groupAdd, { info: { name: '新宿' } }, 'adminA')).body.group_id;
    const zone = (await t.call(zoneAdd, { info: circle }, 'adminA')).body.zone_id;
    expect((await t.call(groupZonesUpdate, { group_id, zone_ids: [zone] }, 'staffA')).status).toBe(403);
    const other = await t.call(groupZonesUpdate, { group_id, zone_ids: [zone] }, 'adminB');
    expect([other.status, other.error.message]).toEqual([404, groupMessages.notFound]);
    expect((await t.call(groupZones, { group_id }, 'adminB')).status).toBe(404);
    expect(await t.db.selectFrom('group_zones').select('zone_id').where('group_id', '=', group_id).execute()).toEqual(
      [],
    );
  });
});

describe('bulk zone assignment', () => {
  it('adds the zones to every selected vehicle, keeping what they had', async () => {
    const a = (await t.call(zoneAdd, { info: { ...circle, name: '東' } }, 'adminA')).body.zone_id;
    const b = (await t.call(zoneAdd, { info: { ...circle, name: '西' } }, 'adminA')).body.zone_id;
    await t.call(zoneCarsAdd, { zone_ids: [a], car_ids: ['car-a2'] }, 'adminA');
    const res = await t.call(zoneCarsAdd, { zone_ids: [a, b], car_ids: ['car-a2', 'car-a3'] }, 'managerA');
    expect([res.status, res.body.count]).toEqual([200, 3]);
    expect(await carZonePairs(['car-a2', 'car-a3'])).toEqual(
      [`car-a2:${a}`, `car-a2:${b}`, `car-a3:${a}`, `car-a3:${b}`].sort(),
    );
    await t.db.deleteFrom('car_zones').where('car_id', 'in', ['car-a2', 'car-a3']).execute();
  });

  it('is all or nothing: another company’s vehicle is 404, bad input 400 in Japanese, staff 403', async () => {
    const zone = (await t.call(zoneAdd, { info: circle }, 'adminA')).body.zone_id;
    const foreign = await t.call(zoneCarsAdd, { zone_ids: [zone], car_ids: ['car-a2', fleet.B.car_id] }, 'adminA');
    expect(foreign.status).toBe(404);
    const none = await t.call(zoneCarsAdd, { zone_ids: [], car_ids: ['car-a2'] }, 'adminA');
    expect([none.status, none.error.errors?.zone_ids]).toEqual([400, zoneMessages.noZones]);
    const noCars = await t.call(zoneCarsAdd, { zone_ids: [zone], car_ids: [] }, 'adminA');
    expect([noCars.status, noCars.error.errors?.car_ids]).toEqual([400, groupMessages.noCars]);
    expect((await t.call(zoneCarsAdd, { zone_ids: [zone], car_ids: ['car-a2'] }, 'staffA')).status).toBe(403);
    // Company B does not see company A's zone.
    expect((await t.call(zoneCarsAdd, { zone_ids: [zone], car_ids: [fleet.B.car_id] }, 'adminB')).status).toBe(404);
    const bZone = (await t.call(zoneAdd, { info: circle }, 'adminB')).body.zone_id;
    const mixed = await t.call(zoneCarsAdd, { zone_ids: [zone, bZone], car_ids: ['car-a2'] }, 'superAdmin');
    expect([mixed.status, mixed.error.errors?.zone_ids]).toEqual([400, zoneMessages.mixedCompanies]);
    expect(await carZonePairs(['car-a2', 'car-a3', fleet.B.car_id])).toEqual([]);
  });
});

describe('bulk area template', () => {
  const template = {
    type: 'available' as const,
    name: '関東',
    areas: [{ name: '関東', lat_min: 35, lat_max: 36.5, lng_min: 138.5, lng_max: 140.5 }],
  };
  const areasOf = async (carIds: string[]) =>
    (await t.db.selectFrom('areas').select(['car_id', 'kind']).where('car_id', 'in', carIds).execute())
      .map((r) => `${r.car_id}:${r.kind}`)
      .sort();

  it('applies a template to every selected vehicle in one transaction', async () => {
    const template_id = (await t.call(areaTemplateUpdate, { template }, 'adminA')).body.template_id;
    const res = await t.call(areaTemplateApplyCars, { template_id, car_ids: ['car-a2', 'car-a3'] }, 'staffA');
    expect([res.status, res.body.type, res.body.count]).toEqual([200, 'available', 2]);
    expect(await areasOf(['car-a2', 'car-a3'])).toEqual(['car-a2:available', 'car-a3:available']);
    await t.db.deleteFrom('areas').where('car_id', 'in', ['car-a2', 'car-a3']).execute();
  });

  it('changes no vehicle when one is another company’s (404) or deleted (409); bad input is 400', async () => {
    const template_id = (await t.call(areaTemplateUpdate, { template }, 'adminA')).body.template_id;
    const foreign = await t.call(areaTemplateApplyCars, { template_id, car_ids: ['car-a2', fleet.B.car_id] }, 'adminA');
    expect(foreign.status).toBe(404);
    const none = await t.call(areaTemplateApplyCars, { template_id, car_ids: [] }, 'adminA');
    expect([none.status, none.error.errors?.car_ids]).toEqual([400, groupMessages.noCars]);
    expect((await t.call(carDelete, { car_id: 'car-a3', isDelete: true }, 'adminA')).status).toBe(200);
    const deleted = await t.call(areaTemplateApplyCars, { template_id, car_ids: ['car-a2', 'car-a3'] }, 'adminA');
    expect([deleted.status, deleted.error.message]).toEqual([409, areaMessages.carDeleted]);
    expect(await areasOf(['car-a2', 'car-a3', fleet.B.car_id])).toEqual([]);
  });
});
