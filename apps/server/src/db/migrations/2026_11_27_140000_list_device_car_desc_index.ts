import { type Kysely, sql } from 'kysely';

/**
 * Terminals by vehicle id, descending: NULLs (terminals on no live vehicle,
 * ~1,000 of 100,000 in the bench fleet) come first, and a backward scan of
 * (car_id, car_device_id) read and re-sorted all of them by car_device_id
 * (bench/README.md, lists). The descending index hands them over in order.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE INDEX devices_car_desc_sort_idx ON devices (car_id DESC, car_device_id)`.execute(db);
}
