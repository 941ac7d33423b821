import { type Kysely, sql } from 'kysely';

/**
 * Four more terminal protocols: JT/T 808, H02, GPS103 (TK103) and Queclink @Track
 * (docs/device-protocol.md). The protocol column's check gains them; the check is
 * replaced under its generated name.
 */
const statements = [
  `ALTER TABLE devices DROP CONSTRAINT IF EXISTS devices_protocol_check`,
  `ALTER TABLE devices ADD CONSTRAINT devices_protocol_check
     CHECK (protocol IN ('json', 'osmand', 'teltonika', 'gt06', 'jt808', 'h02', 'gps103', 'gl200'))`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
