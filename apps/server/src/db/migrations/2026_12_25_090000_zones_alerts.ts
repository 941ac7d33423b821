import { type Kysely, sql } from 'kysely';

/**
 * Zones and the alert inbox (docs/zones.md):
 * - zones: a company's circles (centre, radius in metres) and polygons (points, a JSON array of {lat, lng});
 * - car_zones: which zones a vehicle is judged against (assigned directly);
 * - zone_versions: a token per company, new with every change to its zones or their assignments, read by the
 *   ingest in its own transaction: an instance's index of the company's zones is used only while its
 *   token is current, so every instance judges with what is committed, signal or no signal;
 * - car_zone_states: a vehicle inside a zone, or on its way in or out (`pending` consecutive points
 *   beyond the boundary, the hysteresis); no row means outside and settled, so the ingest reads only the
 *   few rows of its vehicles that are not;
 * - alerts: every alert once, with its vehicle and time, and who acknowledged it when. `dedupe_key` makes
 *   one alert of one occurrence, however many accounts were told about it.
 */
const statements = [
  `CREATE TABLE zones (
    zone_id     text PRIMARY KEY,
    company_id  text NOT NULL REFERENCES companies (company_id),
    name        text NOT NULL,
    shape       text NOT NULL CHECK (shape IN ('circle', 'polygon')),
    color       text NOT NULL,
    lat         double precision,
    lng         double precision,
    radius_m    double precision,
    points      jsonb,
    created_at  timestamptz NOT NULL DEFAULT now(),
    updated_at  timestamptz NOT NULL DEFAULT now()
  )`,
  `CREATE INDEX zones_company_idx ON zones (company_id, name)`,
  `CREATE TABLE car_zones (
    car_id   text NOT NULL REFERENCES cars (car_id) ON DELETE CASCADE,
    zone_id  text NOT NULL REFERENCES zones (zone_id) ON DELETE CASCADE,
    PRIMARY KEY (car_id, zone_id)
  )`,
  `CREATE INDEX car_zones_zone_idx ON car_zones (zone_id)`,
  `CREATE TABLE zone_versions (
    company_id  text PRIMARY KEY REFERENCES companies (company_id),
    token       text NOT NULL
  )`,
  `CREATE TABLE car_zone_states (
    car_id      text NOT NULL REFERENCES cars (car_id) ON DELETE CASCADE,
    zone_id     text NOT NULL REFERENCES zones (zone_id) ON DELETE CASCADE,
    inside      boolean NOT NULL,
    pending     smallint NOT NULL DEFAULT 0,
    changed_at  timestamptz NOT NULL,
    since_lat   double precision NOT NULL,
    since_lng   double precision NOT NULL,
    PRIMARY KEY (car_id, zone_id)
  )`,
  `CREATE TABLE alerts (
    alert_id     bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    dedupe_key   text NOT NULL UNIQUE,
    company_id   text,
    car_id       text NOT NULL REFERENCES cars (car_id),
    car_data_id  text,
    kind         text NOT NULL,
    what         text NOT NULL,
    zone_id      text,
    zone_name    text,
    lat          double precision,
    lng          double precision,
    happened_at  timestamptz NOT NULL,
    created_at   timestamptz NOT NULL DEFAULT now(),
    acked_at     timestamptz,
    acked_by     text REFERENCES accounts (account_id)
  )`,
  `CREATE INDEX alerts_company_time_idx ON alerts (company_id, happened_at DESC, alert_id DESC)`,
  `CREATE INDEX alerts_unacked_idx ON alerts (company_id) WHERE acked_at IS NULL`,
  `CREATE INDEX alerts_terminal_time_idx ON alerts (car_data_id, happened_at)`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
