import { randomBytes, randomUUID } from 'node:crypto';
import type { FromDb, Zone, ZoneShapeValue } from '@fleet/contract';
import { sql } from 'kysely';
import type { Db } from '../db/database.js';

/** Zones, their assignments to vehicles and groups, the vehicles' states in them and each company's version token. */
const json = <T>(v: unknown): T => (typeof v === 'string' ? JSON.parse(v) : v) as T;

const zoneColumns = [
  'z.zone_id',
  'z.company_id',
  'z.name',
  'z.shape',
  'z.color',
  'z.lat',
  'z.lng',
  'z.radius_m',
  'z.points',
  'z.updated_at',
] as const;

const withCount = (db: Db) =>
  db
    .selectFrom('zones as z')
    .select(zoneColumns)
    // The vehicles judged against it: its own and through their groups, each once (as zoneAssignments).
    .select(
      sql<number>`(SELECT count(*)::int FROM (
        SELECT cz.car_id FROM car_zones cz WHERE cz.zone_id = z.zone_id
        UNION
        SELECT cg.car_id FROM group_zones gz JOIN car_groups cg ON cg.group_id = gz.group_id WHERE gz.zone_id = z.zone_id
      ) AS judged)`.as('car_count'),
    );
type Row = Awaited<ReturnType<ReturnType<typeof withCount>['execute']>>[number];
const toZone = (r: Row): FromDb<typeof Zone> => ({
  ...r,
  points: r.points === null ? null : json(r.points),
  car_count: Number(r.car_count ?? 0),
});

/** A company's zones by name (all companies' for null). */
export async function listZones(db: Db, company: string | null): Promise<FromDb<typeof Zone>[]> {
  let q = withCount(db);
  if (company !== null) q = q.where('z.company_id', '=', company);
  const rows = await q.orderBy('z.company_id').orderBy('z.name').orderBy('z.zone_id').execute();
  return rows.map(toZone);
}

/** One zone within the scope (null: any company), or undefined. */
export async function findZone(db: Db, zoneId: string, scope: string | null) {
  let q = db.selectFrom('zones').select(['zone_id', 'company_id', 'name']).where('zone_id', '=', zoneId);
  if (scope !== null) q = q.where('company_id', '=', scope);
  return q.executeTakeFirst();
}

/** Those of these zones within the scope (null: any company), with their companies. */
export async function zonesInScope(db: Db, zoneIds: readonly string[], scope: string | null) {
  let q = db.selectFrom('zones').select(['zone_id', 'company_id']).where('zone_id', 'in', zoneIds);
  if (scope !== null) q = q.where('company_id', '=', scope);
  return q.execute();
}

/** The company's zones and assignments changed: every instance's index of them is stale from this commit. */
export async function zonesChanged(db: Db, companyId: string) {
  await db
    .insertInto('zone_versions')
    .values({ company_id: companyId, token: randomUUID() })
    .onConflict((oc) => oc.column('company_id').doUpdateSet({ token: sql`excluded.token` }))
    .execute();
}

const shapeColumns = (z: ZoneShapeValue) => ({
  name: z.name,
  shape: z.shape,
  color: z.color,
  lat: z.lat,
  lng: z.lng,
  radius_m: z.radius_m,
  points: z.points === null ? null : JSON.stringify(z.points),
});

export async function insertZone(db: Db, companyId: string, z: ZoneShapeValue, now: Date): Promise<string> {
  const zone_id = randomBytes(12).toString('base64url');
  await db
    .insertInto('zones')
    .values({ zone_id, company_id: companyId, ...shapeColumns(z), created_at: now, updated_at: now })
    .execute();
  await zonesChanged(db, companyId);
  return zone_id;
}

export async function updateZone(db: Db, zoneId: string, companyId: string, z: ZoneShapeValue, now: Date) {
  await db
    .updateTable('zones')
    .set({ ...shapeColumns(z), updated_at: now })
    .where('zone_id', '=', zoneId)
    .execute();
  // A vehicle's state was judged against the old shape: it starts again from the next point.
  await db.deleteFrom('car_zone_states').where('zone_id', '=', zoneId).execute();
  await zonesChanged(db, companyId);
}

export async function deleteZone(db: Db, zoneId: string, companyId: string) {
  await db.deleteFrom('zones').where('zone_id', '=', zoneId).execute();
  await zonesChanged(db, companyId);
}

/** The zones assigned to a vehicle directly. */
export async function carZoneList(db: Db, carId: string): Promise<FromDb<typeof Zone>[]> {
  const rows = await withCount(db)
    .where((eb) =>
      eb.exists(eb.selectFrom('car_zones as a').whereRef('a.zone_id', '=', 'z.zone_id').where('a.car_id', '=', carId)),
    )
    .orderBy('z.name')
    .orderBy('z.zone_id')
    .execute();
  return rows.map(toZone);
}

/** The zones a vehicle has through its groups, by zone and group name. */
export async function carGroupZoneList(db: Db, carId: string) {
  return db
    .selectFrom('car_groups as cg')
    .innerJoin('group_zones as gz', 'gz.group_id', 'cg.group_id')
    .innerJoin('zones as z', 'z.zone_id', 'gz.zone_id')
    .innerJoin('vehicle_groups as g', 'g.group_id', 'cg.group_id')
    .select(['z.zone_id', 'z.name', 'g.group_id', 'g.name as group_name'])
    .where('cg.car_id', '=', carId)
    .orderBy('z.name')
    .orderBy('g.name')
    .execute();
}

/** Of these zone ids, those of the company (the rest are another company's or gone). */
export async function companyZoneIds(db: Db, companyId: string, zoneIds: readonly string[]): Promise<Set<string>> {
  if (zoneIds.length === 0) return new Set();
  const rows = await db
    .selectFrom('zones')
    .select('zone_id')
    .where('company_id', '=', companyId)
    .where('zone_id', 'in', zoneIds)
    .execute();
  return new Set(rows.map((r) => r.zone_id));
}

/** Replaces a vehicle's direct assignments; its states in zones it no longer has go with them. */
export async function replaceCarZones(db: Db, carId: string, companyId: string, zoneIds: readonly string[]) {
  await db.deleteFrom('car_zones').where('car_id', '=', carId).execute();
  if (zoneIds.length)
    await db
      .insertInto('car_zones')
      .values(zoneIds.map((zone_id) => ({ car_id: carId, zone_id })))
      .execute();
  await assignmentsChanged(db, companyId);
}

/** Adds zones to vehicles' own zones (those they have stay). Returns how many (vehicle, zone) pairs are new. */
export async function addCarZones(db: Db, companyId: string, carIds: readonly string[], zoneIds: readonly string[]) {
  const rows = await db
    .insertInto('car_zones')
    .values(carIds.flatMap((car_id) => zoneIds.map((zone_id) => ({ car_id, zone_id }))))
    .onConflict((oc) => oc.doNothing())
    .returning('car_id')
    .execute();
  await zonesChanged(db, companyId);
  return rows.length;
}

/** Of these vehicles, the live ones of the company. */
export async function liveCompanyCarIds(db: Db, companyId: string, carIds: readonly string[]) {
  const rows = await db
    .selectFrom('cars')
    .select('car_id')
    .where('company_id', '=', companyId)
    .where('is_delete', '=', false)
    .where('car_id', 'in', carIds)
    .execute();
  return rows.map((r) => r.car_id);
}

/** The zones assigned to a group (judged for each of its vehicles). */
export async function groupZoneList(db: Db, groupId: string): Promise<FromDb<typeof Zone>[]> {
  const rows = await withCount(db)
    .where((eb) =>
      eb.exists(
        eb.selectFrom('group_zones as g').whereRef('g.zone_id', '=', 'z.zone_id').where('g.group_id', '=', groupId),
      ),
    )
    .orderBy('z.name')
    .orderBy('z.zone_id')
    .execute();
  return rows.map(toZone);
}

/** Replaces a group's zones (already checked to be the group's company's). */
export async function replaceGroupZones(db: Db, groupId: string, companyId: string, zoneIds: readonly string[]) {
  await db.deleteFrom('group_zones').where('group_id', '=', groupId).execute();
  if (zoneIds.length)
    await db
      .insertInto('group_zones')
      .values(zoneIds.map((zone_id) => ({ group_id: groupId, zone_id })))
      .execute();
  await assignmentsChanged(db, companyId);
}

/**
 * Which vehicle has which zone changed (its own zones, its groups, a group's zones): the states of pairs no
 * longer assigned are dropped (the vehicle starts afresh if it gets the zone back) and the index is stale.
 * Called in the transaction of the change.
 */
export async function assignmentsChanged(db: Db, companyId: string) {
  await sql`DELETE FROM car_zone_states s
    USING zones z
    WHERE z.zone_id = s.zone_id AND z.company_id = ${companyId}
      AND NOT EXISTS (SELECT 1 FROM car_zones cz WHERE cz.car_id = s.car_id AND cz.zone_id = s.zone_id)
      AND NOT EXISTS (SELECT 1 FROM group_zones gz JOIN car_groups cg ON cg.group_id = gz.group_id
                      WHERE cg.car_id = s.car_id AND gz.zone_id = s.zone_id)`.execute(db);
  await zonesChanged(db, companyId);
}

// What the ingest reads and writes ------------------------------------------------------------------

export interface ZoneRecord {
  zone_id: string;
  name: string;
  shape: 'circle' | 'polygon';
  lat: number | null;
  lng: number | null;
  radius_m: number | null;
  points: { lat: number; lng: number }[] | null;
}

/** The version tokens of the companies that have (or had) zones. */
export async function zoneTokens(db: Db, companies: readonly string[]): Promise<Map<string, string>> {
  if (companies.length === 0) return new Map();
  const rows = await db
    .selectFrom('zone_versions')
    .select(['company_id', 'token'])
    .where('company_id', 'in', companies)
    .execute();
  return new Map(rows.map((r) => [r.company_id, r.token]));
}

/** A company's zones. */
export async function companyZones(db: Db, companyId: string): Promise<ZoneRecord[]> {
  const rows = await db
    .selectFrom('zones')
    .select(['zone_id', 'name', 'shape', 'lat', 'lng', 'radius_m', 'points'])
    .where('company_id', '=', companyId)
    .execute();
  return rows.map((r) => ({ ...r, points: r.points === null ? null : json(r.points) }));
}

/**
 * Which zones each of a company's vehicles is judged against: its own zones and its groups' zones. The one
 * place that says so; every change to either bumps the token (assignmentsChanged).
 */
export async function zoneAssignments(db: Db, companyId: string): Promise<{ car_id: string; zone_id: string }[]> {
  return db
    .selectFrom('car_zones as cz')
    .innerJoin('zones as z', 'z.zone_id', 'cz.zone_id')
    .select(['cz.car_id', 'cz.zone_id'])
    .where('z.company_id', '=', companyId)
    .union(
      db
        .selectFrom('group_zones as gz')
        .innerJoin('zones as z', 'z.zone_id', 'gz.zone_id')
        .innerJoin('car_groups as cg', 'cg.group_id', 'gz.group_id')
        .select(['cg.car_id', 'gz.zone_id'])
        .where('z.company_id', '=', companyId),
    )
    .execute();
}

export interface StoredZoneState {
  car_id: string;
  zone_id: string;
  inside: boolean;
  pending: number;
  changed_at: Date | string;
  since_lat: number;
  since_lng: number;
}

export async function zoneStatesOf(db: Db, carIds: readonly string[]): Promise<StoredZoneState[]> {
  if (carIds.length === 0) return [];
  return db
    .selectFrom('car_zone_states')
    .select(['car_id', 'zone_id', 'inside', 'pending', 'changed_at', 'since_lat', 'since_lng'])
    .where('car_id', 'in', carIds)
    .execute();
}

/** Writes the states a batch changed: rows set, and (car, zone) pairs back to outside and settled. */
export async function saveZoneStates(
  db: Db,
  set: readonly StoredZoneState[],
  cleared: readonly { car_id: string; zone_id: string }[],
) {
  if (set.length)
    await db
      .insertInto('car_zone_states')
      .values([...set])
      .onConflict((oc) =>
        oc.columns(['car_id', 'zone_id']).doUpdateSet({
          inside: sql`excluded.inside`,
          pending: sql`excluded.pending`,
          changed_at: sql`excluded.changed_at`,
          since_lat: sql`excluded.since_lat`,
          since_lng: sql`excluded.since_lng`,
        }),
      )
      .execute();
  if (cleared.length)
    await sql`DELETE FROM car_zone_states s USING unnest(${cleared.map((c) => c.car_id)}::text[], ${cleared.map(
      (c) => c.zone_id,
    )}::text[]) AS g(car_id, zone_id) WHERE s.car_id = g.car_id AND s.zone_id = g.zone_id`.execute(db);
}

/** A vehicle's company and whether it is deleted, locked for a change of its assignments. */
export async function lockCarForZones(db: Db, carId: string) {
  return db
    .selectFrom('cars')
    .select(['car_id', 'company_id', 'is_delete'])
    .where('car_id', '=', carId)
    .forUpdate()
    .executeTakeFirst();
}
