import { type Kysely, sql } from 'kysely';

/**
 * A terminal that has reported but never sent an error record is normal
 * (device state 0), not unknown (docs/decisions.md "isNormal"). New batches
 * fill the state as they merge; this fills it for terminals stored before.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`UPDATE device_latest_state SET device_state = 0 WHERE device_state IS NULL AND recorded_at IS NOT NULL`.execute(
    db,
  );
}
