import Flatbush from 'flatbush';
import type { Db } from '../db/database.js';
import { boundingBox, circle, polygon, type Shape } from './geometry.js';
import { ZONE_MARGIN_M } from './judge.js';
import { companyZones, zoneAssignments } from './zones.repository.js';

/**
 * A company's zones ready for the ingest: their shapes, a spatial index of their boxes (grown by the
 * margin) and which vehicle is judged against which. Built once per change of the company's zones or
 * assignments and kept by its version token (zone_versions), so an instance never judges with an index
 * older than what its own transaction reads, and nothing is rebuilt per batch.
 */
export interface IndexedZone {
  zone_id: string;
  name: string;
  shape: Shape;
}
export interface CompanyZones {
  zones: IndexedZone[];
  byId: Map<string, number>;
  /** null when the company has no zones. */
  index: Flatbush | null;
  /** Each zone's box as indexed (grown by the margin): minLng, minLat, maxLng, maxLat at 4 × its number. */
  boxes: Float64Array;
  assigned: Map<string, Set<number>>;
}

export async function buildCompanyZones(db: Db, companyId: string): Promise<CompanyZones> {
  const records = await companyZones(db, companyId);
  const assignments = await zoneAssignments(db, companyId);
  const zones = records.map((r) => ({
    zone_id: r.zone_id,
    name: r.name,
    shape: r.shape === 'circle' ? circle({ lat: r.lat!, lng: r.lng! }, r.radius_m!) : polygon(r.points!),
  }));
  const byId = new Map(zones.map((z, i) => [z.zone_id, i]));
  let index: Flatbush | null = null;
  const boxes = new Float64Array(records.length * 4);
  if (records.length) {
    index = new Flatbush(records.length);
    for (const [i, r] of records.entries()) {
      const box = boundingBox(r, ZONE_MARGIN_M);
      boxes.set(box, i * 4);
      index.add(...box);
    }
    index.finish();
  }
  const assigned = new Map<string, Set<number>>();
  for (const a of assignments) {
    const i = byId.get(a.zone_id);
    if (i === undefined) continue;
    let set = assigned.get(a.car_id);
    if (!set) assigned.set(a.car_id, (set = new Set()));
    set.add(i);
  }
  return { zones, byId, index, boxes, assigned };
}

/** The indexes of this process by version token (a token is unique to one state of one company). */
const MAX_KEPT = 64;
const kept = new Map<string, Promise<CompanyZones>>();

/** The company's zones as of `token`, built (once, whoever asks meanwhile) when not kept. */
export function zonesAt(db: Db, companyId: string, token: string): Promise<CompanyZones> {
  const key = `${companyId}\n${token}`;
  let found = kept.get(key);
  if (found) {
    kept.delete(key);
    kept.set(key, found);
    return found;
  }
  found = buildCompanyZones(db, companyId);
  found.catch(() => kept.delete(key));
  kept.set(key, found);
  if (kept.size > MAX_KEPT) kept.delete(kept.keys().next().value!);
  return found;
}
