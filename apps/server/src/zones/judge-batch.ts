import type { DeviceRecord } from '@fleet/contract';
import { recordAlerts, type NewAlert } from '../alerts/alerts.repository.js';
import type { Db } from '../db/database.js';
import { enqueueWebhookEvents, webhookTypesWanted } from '../webhooks/webhook.repository.js';
import { step, zoneDistance, type GpsPoint, type ZoneState } from './judge.js';
import { zonesAt, type CompanyZones } from './zone-index.js';
import { saveZoneStates, zoneStatesOf, zoneTokens, type StoredZoneState } from './zones.repository.js';

/** A vehicle fitted with a terminal whose batch is judged. */
export interface ZoneCar {
  car_id: string;
  car_number: string;
  company_id: string | null;
  car_data_id: string;
}

export interface ZoneBatch {
  carDataId: string;
  /** The batch oldest first, each record's time (epoch ms) at its index. */
  order: { records: readonly DeviceRecord[]; times: readonly number[] };
  now: Date;
}

/** A crossing, as the notifications word it (エリア警告's channels; docs/zones.md "Alerts"). */
export interface ZoneFinding {
  kind: 'zone_enter' | 'zone_exit';
  zone_id: string;
  zone_name: string;
  at: Date;
  position: { lat: number; lng: number };
  what: string;
}

const NONE: readonly number[] = [];

/** The assigned zones whose boxes meet the box of the batch's GPS points (none without a GPS point). */
function zonesAround(zones: CompanyZones, records: readonly DeviceRecord[], assigned: ReadonlySet<number>) {
  let minLat = Infinity;
  let minLng = Infinity;
  let maxLat = -Infinity;
  let maxLng = -Infinity;
  for (const rec of records) {
    if (rec.type !== 'gps') continue;
    if (rec.lat < minLat) minLat = rec.lat;
    if (rec.lat > maxLat) maxLat = rec.lat;
    if (rec.lng < minLng) minLng = rec.lng;
    if (rec.lng > maxLng) maxLng = rec.lng;
  }
  if (minLat > maxLat) return NONE;
  return zones.index!.search(minLng, minLat, maxLng, maxLat, (i) => assigned.has(i));
}

const wordOf = (kind: ZoneFinding['kind'], name: string) =>
  kind === 'zone_enter' ? `ゾーン「${name}」に入りました` : `ゾーン「${name}」から出ました`;

/**
 * Judges the batches' GPS points against their vehicles' zones in the ingest's transaction: keeps each
 * vehicle's states, records each crossing as an alert and a `zone.enter` / `zone.exit` webhook event,
 * and returns the crossings by vehicle for the notification channels. Costs one statement when no
 * company of these vehicles has zones, two or three more when one has.
 */
export async function judgeZones(
  trx: Db,
  batches: readonly ZoneBatch[],
  cars: readonly ZoneCar[],
): Promise<Map<string, ZoneFinding[]>> {
  const out = new Map<string, ZoneFinding[]>();
  const companies = [...new Set(cars.flatMap((c) => (c.company_id === null ? [] : [c.company_id])))];
  const tokens = await zoneTokens(trx, companies);
  if (tokens.size === 0) return out;
  const byCompany = new Map<string, CompanyZones>();
  for (const [company, token] of tokens) byCompany.set(company, await zonesAt(trx, company, token));

  const judged = cars.filter((c) => c.company_id !== null && byCompany.get(c.company_id)?.index);
  const stored = await zoneStatesOf(
    trx,
    judged.map((c) => c.car_id),
  );
  const batchOf = new Map(batches.map((b) => [b.carDataId, b]));
  const storedOf = new Map<string, StoredZoneState[]>();
  for (const s of stored) {
    const list = storedOf.get(s.car_id);
    if (list) list.push(s);
    else storedOf.set(s.car_id, [s]);
  }
  const set: StoredZoneState[] = [];
  const cleared: { car_id: string; zone_id: string }[] = [];
  const alerts: NewAlert[] = [];

  for (const car of judged) {
    const zones = byCompany.get(car.company_id!)!;
    const assigned = zones.assigned.get(car.car_id);
    const states = new Map<number, ZoneState>();
    for (const s of storedOf.get(car.car_id) ?? []) {
      const i = zones.byId.get(s.zone_id);
      if (i !== undefined)
        states.set(i, {
          inside: s.inside,
          pending: s.pending,
          since: { lat: s.since_lat, lng: s.since_lng, at: new Date(s.changed_at).getTime() },
        });
    }
    if (!assigned?.size && states.size === 0) continue;
    const batch = batchOf.get(car.car_data_id);
    if (!batch) continue;
    const initial = new Map(states);
    const seen = new Set(states.keys());
    const found: ZoneFinding[] = out.get(car.car_id) ?? [];
    const judge = (i: number, p: GpsPoint, d: number) => {
      const zone = zones.zones[i]!;
      const result = step(states.get(i), p, d);
      if (result.state) {
        states.set(i, result.state);
        seen.add(i);
      } else states.delete(i);
      if (!result.crossing) return;
      const c = result.crossing;
      const finding: ZoneFinding = {
        kind: c.kind,
        zone_id: zone.zone_id,
        zone_name: zone.name,
        at: new Date(c.point.at),
        position: { lat: c.point.lat, lng: c.point.lng },
        what: wordOf(c.kind, zone.name),
      };
      found.push(finding);
      alerts.push({
        dedupe_key: `${c.kind}:${car.car_id}:${zone.zone_id}:${finding.at.toISOString()}`,
        company_id: car.company_id,
        car_id: car.car_id,
        car_data_id: car.car_data_id,
        kind: c.kind,
        what: finding.what,
        zone_id: zone.zone_id,
        zone_name: zone.name,
        lat: c.point.lat,
        lng: c.point.lng,
        happened_at: finding.at,
      });
    };
    const { records, times } = batch.order;
    // One search of the index for the batch's track (its box), then each point against those few zones' boxes.
    const candidates = assigned?.size ? zonesAround(zones, records, assigned) : NONE;
    if (candidates.length === 0 && states.size === 0) continue;
    const { boxes } = zones;
    for (let r = 0; r < records.length; r++) {
      const rec = records[r]!;
      if (rec.type !== 'gps') continue;
      const p: GpsPoint = { lat: rec.lat, lng: rec.lng, at: times[r]! };
      const near = candidates.filter(
        (i) =>
          boxes[i * 4]! <= p.lng &&
          p.lng <= boxes[i * 4 + 2]! &&
          boxes[i * 4 + 1]! <= p.lat &&
          p.lat <= boxes[i * 4 + 3]!,
      );
      // Most points are near no zone and in none: nothing to judge.
      if (near.length === 0 && states.size === 0) continue;
      for (const i of near) judge(i, p, zoneDistance(zones.zones[i]!.shape, p));
      // The zones it is in or on its way in or out of, and not near any more: a point far beyond them.
      if (states.size > 0) for (const i of [...states.keys()]) if (!near.includes(i)) judge(i, p, Infinity);
    }
    if (found.length) out.set(car.car_id, found);
    for (const i of seen) {
      const s = states.get(i);
      const was = initial.get(i);
      const zone_id = zones.zones[i]!.zone_id;
      if (!s) {
        if (was) cleared.push({ car_id: car.car_id, zone_id });
      } else if (!was || was.inside !== s.inside || was.pending !== s.pending || was.since.at !== s.since.at)
        set.push({
          car_id: car.car_id,
          zone_id,
          inside: s.inside,
          pending: s.pending,
          changed_at: new Date(s.since.at),
          since_lat: s.since.lat,
          since_lng: s.since.lng,
        });
    }
  }
  await saveZoneStates(trx, set, cleared);
  if (alerts.length) {
    const now = batches[0]?.now ?? new Date();
    await recordAlerts(trx, alerts, now);
    // The events only when a receiver wants them: a busy fleet's crossings are many, receivers few.
    const wanted = await webhookTypesWanted(trx, ['zone.enter', 'zone.exit'] as const);
    const typeOf = (a: NewAlert) => (a.kind === 'zone_enter' ? ('zone.enter' as const) : ('zone.exit' as const));
    await enqueueWebhookEvents(
      trx,
      alerts
        .filter((a) => wanted.has(typeOf(a)))
        .map((a) => ({
          id: a.dedupe_key,
          type: typeOf(a),
          company_id: a.company_id,
          at: a.happened_at,
          data: {
            car_id: a.car_id,
            car_data_id: a.car_data_id,
            zone_id: a.zone_id,
            zone_name: a.zone_name,
            what: a.what,
            happened_at: a.happened_at.toISOString(),
            position: { lat: a.lat, lng: a.lng },
          },
        })),
      now,
    );
  }
  return out;
}
