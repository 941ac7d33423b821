import { type Kysely, sql } from 'kysely';

/**
 * How a reserved command ended when it did not run (deleted in execWait, or
 * expired before a terminal fetched it), an index for the expiry sweep, and
 * why a reservation request failed and who cancelled it.
 */
const statements = [
  `ALTER TABLE reserved_commands
     ADD COLUMN closed_reason text CHECK (closed_reason IN ('deleted', 'expired'))`,
  `CREATE INDEX reserved_commands_expiry_idx ON reserved_commands (expires_at)
     WHERE state IN (1, 2) AND deleted_at IS NULL AND expires_at IS NOT NULL`,
  `ALTER TABLE reservation_requests
     ADD COLUMN reason       text,
     ADD COLUMN cancelled_by text REFERENCES accounts(account_id),
     ADD COLUMN cancelled_at timestamptz`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
