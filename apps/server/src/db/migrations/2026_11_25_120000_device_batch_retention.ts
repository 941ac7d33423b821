import { type Kysely, sql } from 'kysely';

/**
 * Batch receipts only need to outlive a terminal's retries; an index on their
 * age lets the hourly prune drop old ones without scanning the table.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE INDEX device_batches_received_idx ON device_batches (received_at)`.execute(db);
}
