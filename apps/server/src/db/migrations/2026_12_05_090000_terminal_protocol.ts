import { type Kysely, sql } from 'kysely';

/**
 * Real terminals (docs/device-protocol.md §10-13): the protocol a terminal speaks — `json` (ours), `osmand`
 * (Traccar Client over HTTP), `teltonika`, `gt06` — and optional overrides of the text of
 * the immobiliser commands sent to a binary-protocol terminal (empty: the protocol's default).
 */
const statements = [
  `ALTER TABLE devices ADD COLUMN protocol text NOT NULL DEFAULT 'json'
     CHECK (protocol IN ('json', 'osmand', 'teltonika', 'gt06'))`,
  `ALTER TABLE devices ADD COLUMN cmd_cut_text text NOT NULL DEFAULT ''`,
  `ALTER TABLE devices ADD COLUMN cmd_restore_text text NOT NULL DEFAULT ''`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
