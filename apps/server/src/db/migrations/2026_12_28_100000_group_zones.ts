import { type Kysely, sql } from 'kysely';

/**
 * Zones assigned through vehicle groups (docs/zones.md "Assignment"): a group's zones are judged for
 * every vehicle of the group, besides the vehicle's own (car_zones). Deleting the group or the zone
 * drops the row; the writer bumps the company's zone_versions token in the same transaction.
 */
const statements = [
  `CREATE TABLE group_zones (
    group_id  text NOT NULL REFERENCES vehicle_groups (group_id) ON DELETE CASCADE,
    zone_id   text NOT NULL REFERENCES zones (zone_id) ON DELETE CASCADE,
    PRIMARY KEY (group_id, zone_id)
  )`,
  `CREATE INDEX group_zones_zone_idx ON group_zones (zone_id, group_id)`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
