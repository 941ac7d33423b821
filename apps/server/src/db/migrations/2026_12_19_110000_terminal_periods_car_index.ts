import { type Kysely, sql } from 'kysely';

/**
 * The fleet summary (docs/trips.md) reads each vehicle's periods by `car_id`: the terminals it carried and
 * when. terminal_periods had no index for that but the open periods' (`WHERE ended_at IS NULL`), so each
 * vehicle's row read the whole table, where one vehicle's periods are a row or two: a large fleet's summary
 * took minutes (bench/README.md, Measurements behind the code: Trips).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE INDEX terminal_periods_car_idx ON terminal_periods (car_id, started_at)`.execute(db);
}
