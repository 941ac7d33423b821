import { type Kysely, sql } from 'kysely';

/**
 * Latest state per field group, each with the time of the record it came
 * from, so a late (older) record never overwrites a newer one of its kind;
 * and single-use tickets for the live push (EventSource cannot send headers).
 */
const statements = [
  `ALTER TABLE device_latest_state
     ADD COLUMN position_at       timestamptz,
     ADD COLUMN engine_running_at timestamptz,
     ADD COLUMN engine_line_at    timestamptz,
     ADD COLUMN connection_at     timestamptz,
     ADD COLUMN device_state_at   timestamptz,
     ADD COLUMN battery_at        timestamptz`,
  `UPDATE device_latest_state SET
     position_at = recorded_at, engine_running_at = recorded_at, engine_line_at = recorded_at,
     connection_at = recorded_at, device_state_at = recorded_at, battery_at = recorded_at`,
  `CREATE TABLE live_tickets (
    ticket_hash text PRIMARY KEY,
    token_hash  text NOT NULL REFERENCES sessions(token_hash) ON DELETE CASCADE,
    expires_at  timestamptz NOT NULL
  )`,
  `CREATE INDEX live_tickets_expiry_idx ON live_tickets (expires_at)`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
