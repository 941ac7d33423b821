import { type Kysely, sql } from 'kysely';

/**
 * A prohibit held back while its vehicle moves is said once in its timeline ('held'). The hand-out
 * wrote it when no 'held' event was there yet, but two hand-outs at the same time (the link's safety
 * poll and a signal) each looked in a snapshot without the other's event and both wrote one. A unique
 * index says it once, whoever writes; the duplicates already written go (the first of each stays).
 */
const statements = [
  `DELETE FROM reserved_command_events AS e
    WHERE e.event = 'held' AND EXISTS (
      SELECT 1 FROM reserved_command_events AS first
      WHERE first.command_id = e.command_id AND first.event = 'held' AND first.id < e.id)`,
  `CREATE UNIQUE INDEX reserved_command_events_held_once ON reserved_command_events (command_id) WHERE event = 'held'`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
