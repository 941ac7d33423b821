import { type Kysely, sql } from 'kysely';

/**
 * What the fleet summary adds up, per terminal, day in Japan and vehicle (docs/trips.md): kept by the
 * detection job from the trip pieces and stops it writes (trips/ is its one writer), so a summary over whole
 * days reads a row per vehicle and day instead of every piece, which over a month of a large fleet took
 * seconds (bench/README.md, Measurements behind the code: Trips). `car_id` and `company_id` are the period the pieces fell in (a terminal moved to
 * another vehicle mid-day has a row for each); `first_continued`: the day's first piece goes on from the
 * day before (a drive across midnight), so it is no trip of its own unless the range starts that day.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE TABLE trip_days (
    car_data_id     text NOT NULL,
    day             date NOT NULL,
    car_id          text NOT NULL,
    company_id      text NOT NULL,
    distance_m      double precision NOT NULL,
    driving_s       double precision NOT NULL,
    trips           integer NOT NULL,
    first_continued boolean NOT NULL,
    stops           integer NOT NULL,
    max_speed_kmh   double precision NOT NULL,
    PRIMARY KEY (car_data_id, day, car_id, company_id)
  )`.execute(db);
  await sql`CREATE INDEX trip_days_car_idx ON trip_days (car_id, day)
    INCLUDE (company_id, distance_m, driving_s, trips, first_continued, stops, max_speed_kmh)`.execute(db);
}
