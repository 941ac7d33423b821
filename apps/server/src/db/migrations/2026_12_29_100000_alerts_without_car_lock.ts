import { type Kysely, sql } from 'kysely';

/**
 * Alerts are history, written at ingest by the thousand when a busy fleet drives through its zones: each
 * row's foreign key to cars locked the vehicle's row (FOR KEY SHARE) in every storing transaction, the
 * concurrent group commits sharing those locks as multixacts. A vehicle is never deleted (only marked,
 * `is_delete`), and every alert is written from a vehicle just read in the same transaction, so the key
 * checks nothing the writers do not already ensure.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE alerts DROP CONSTRAINT alerts_car_id_fkey`.execute(db);
}
