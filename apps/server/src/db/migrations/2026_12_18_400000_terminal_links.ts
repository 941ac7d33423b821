import { type Kysely, sql } from 'kysely';

/**
 * Terminal identity on the TCP links (docs/security.md "Terminal identity"):
 * - terminal_links: the live link of each Teltonika / GT06 terminal, whichever server instance holds it
 *   (the instance refreshes seen_at while the socket is open), so a second login for the same IMEI is
 *   judged against a link held anywhere;
 * - terminal_addresses: the source addresses a terminal has logged in from, for the new-address alert;
 * - companies.alert_new_terminal_address: the company asks for that alert (off by default);
 * - reserved_commands: the link that first delivered a command and the one its answer came on.
 */
const statements = [
  `CREATE TABLE terminal_links (
    car_data_id  text PRIMARY KEY,
    protocol     text NOT NULL,
    address      text NOT NULL,
    connected_at timestamptz NOT NULL,
    instance     text NOT NULL,
    seen_at      timestamptz NOT NULL
  )`,
  `CREATE TABLE terminal_addresses (
    car_data_id text NOT NULL,
    address     text NOT NULL,
    first_at    timestamptz NOT NULL DEFAULT now(),
    last_at     timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (car_data_id, address)
  )`,
  `ALTER TABLE companies ADD COLUMN alert_new_terminal_address boolean NOT NULL DEFAULT false`,
  `ALTER TABLE reserved_commands
    ADD COLUMN sent_address text,
    ADD COLUMN sent_connected_at timestamptz,
    ADD COLUMN answer_address text,
    ADD COLUMN answer_connected_at timestamptz`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
