import { type Kysely, sql } from 'kysely';

/**
 * Trips and stops detected from the terminals' positions (docs/trips.md):
 * - trips, stops: per terminal (IMEI), as the detection job found them. `settled` rows never change
 *   again unless late positions make the job compute their span again; the others (the newest stop,
 *   the trip under way) are replaced at every run. A trip is stored in pieces cut at midnight in Japan
 *   and where the terminal changed vehicles (`continued`: the piece goes on from the one before it at
 *   midnight), so a day's and a company's share are sums of whole rows. The reports read these alone,
 *   never the position log; the trips' index carries what the fleet summary adds up (index-only scans).
 * - trip_cursors: per terminal, how far the job has read its positions (the newest position's id and time)
 *   and the detection's state there, so each run feeds only what arrived since.
 * - trip_scan: the job's place in the position log (ids), from which it finds the terminals with news, and
 *   until when the instance running it holds it (one instance at a time).
 * - trip_settings: a company's detection rule; a company without a row uses the default
 *   (5 minutes within 100 m under 5 km/h; a trip covers 500 m).
 */
const statements = [
  `CREATE TABLE trips (
    id            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    car_data_id   text NOT NULL,
    start_at      timestamptz NOT NULL,
    end_at        timestamptz NOT NULL,
    start_lat     double precision NOT NULL,
    start_lng     double precision NOT NULL,
    end_lat       double precision NOT NULL,
    end_lng       double precision NOT NULL,
    start_address text,
    end_address   text,
    distance_m    double precision NOT NULL,
    max_speed_kmh double precision NOT NULL,
    continued     boolean NOT NULL DEFAULT false,
    settled       boolean NOT NULL DEFAULT true
  )`,
  `CREATE INDEX trips_terminal_time_idx ON trips (car_data_id, start_at)
     INCLUDE (end_at, distance_m, max_speed_kmh, continued)`,
  `CREATE INDEX trips_unsettled_idx ON trips (car_data_id) WHERE NOT settled`,
  `CREATE TABLE stops (
    id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    car_data_id text NOT NULL,
    start_at    timestamptz NOT NULL,
    end_at      timestamptz,
    last_at     timestamptz NOT NULL,
    lat         double precision NOT NULL,
    lng         double precision NOT NULL,
    address     text,
    settled     boolean NOT NULL DEFAULT true
  )`,
  `CREATE INDEX stops_terminal_time_idx ON stops (car_data_id, start_at) INCLUDE (end_at, last_at)`,
  `CREATE INDEX stops_unsettled_idx ON stops (car_data_id) WHERE NOT settled`,
  `CREATE TABLE trip_cursors (
    car_data_id text PRIMARY KEY,
    through_id  bigint NOT NULL,
    through_at  timestamptz NOT NULL,
    state       jsonb NOT NULL,
    cuts        text NOT NULL DEFAULT '',
    updated_at  timestamptz NOT NULL DEFAULT now()
  )`,
  `CREATE TABLE trip_scan (
    id      smallint PRIMARY KEY DEFAULT 1 CHECK (id = 1),
    last_id bigint NOT NULL DEFAULT 0,
    leased_until timestamptz
  )`,
  `INSERT INTO trip_scan (id, last_id) VALUES (1, 0)`,
  `CREATE TABLE trip_settings (
    company_id     text PRIMARY KEY REFERENCES companies (company_id) ON DELETE CASCADE,
    stop_min_s     integer NOT NULL,
    stop_radius_m  integer NOT NULL,
    stop_speed_kmh integer NOT NULL,
    trip_min_m     integer NOT NULL,
    updated_at     timestamptz NOT NULL DEFAULT now()
  )`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
