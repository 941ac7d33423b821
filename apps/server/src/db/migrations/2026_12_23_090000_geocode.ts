import { type Kysely, sql } from 'kysely';

/**
 * Addresses of positions (docs/geocoding.md), looked up outside ingest by the geocode job:
 * - geocode_cells: one row per cell of 1/10,000 degree (about 11 m north-south, 9 m east-west in Japan),
 *   keyed by floor(lat * 10000) and floor(lng * 10000), so nearby points never ask twice and every instance
 *   shares the answers. `pending` cells wait for the job (next_attempt_at); `done` ones hold the address
 *   (null where the provider knows none, e.g. at sea); `failed` ones gave up after their attempts.
 * - geocode_limiter: the deployment's one rate limit and back-off: each request first takes the next free
 *   slot (next_slot_at moves on by 1/rate s), and after failures nobody asks before paused_until.
 * Column names avoid the logs' (lat, lng, recorded_at, id) so the CSV export can join a cell unqualified.
 */
const statements = [
  `CREATE TABLE geocode_cells (
    cell_lat        integer NOT NULL,
    cell_lng        integer NOT NULL,
    state           text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'done', 'failed')),
    address         text,
    muni_cd         text,
    attempts        smallint NOT NULL DEFAULT 0,
    next_attempt_at timestamptz NOT NULL DEFAULT now(),
    requested_at    timestamptz NOT NULL DEFAULT now(),
    looked_up_at    timestamptz,
    PRIMARY KEY (cell_lat, cell_lng)
  )`,
  `CREATE INDEX geocode_cells_pending_idx ON geocode_cells (next_attempt_at) WHERE state = 'pending'`,
  `CREATE TABLE geocode_limiter (
    id           smallint PRIMARY KEY DEFAULT 1 CHECK (id = 1),
    next_slot_at timestamptz NOT NULL DEFAULT now(),
    failures     integer NOT NULL DEFAULT 0,
    paused_until timestamptz NOT NULL DEFAULT now()
  )`,
  `INSERT INTO geocode_limiter (id) VALUES (1)`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
