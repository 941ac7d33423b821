import { refreshDays } from '../src/trips/trips.repository.js';
import { fleet, type SignedInApp } from './helper.js';

/** 2026-11-20 in Japan: two trips and two stops of terminal A, the last stop still going on. */
export const DAY = '2026-11-20';
const jst = (hhmm: string, day = DAY) => new Date(`${day}T${hhmm}:00+09:00`);
export const CAR_A_NUMBER = '品川 500 あ 12-34';

export async function seedReportDay(app: SignedInApp) {
  await app.db.updateTable('cars').set({ car_number: CAR_A_NUMBER }).where('car_id', '=', fleet.A.car_id).execute();
  const trip = (start: string, end: string, distance_m: number, max_speed_kmh: number, address: string | null) => ({
    car_data_id: fleet.A.car_data_id,
    start_at: jst(start),
    end_at: jst(end),
    start_lat: 35.68,
    start_lng: 139.76,
    end_lat: 35.7,
    end_lng: 139.8,
    start_address: address,
    end_address: null,
    distance_m,
    max_speed_kmh,
    continued: false,
    settled: true,
  });
  await app.db
    .insertInto('trips')
    .values([
      trip('08:00', '08:30', 12_345, 62.4, '東京都千代田区丸の内1丁目'),
      trip('12:00', '12:20', 5_000, 48, null),
    ])
    .execute();
  await app.db
    .insertInto('stops')
    .values([
      {
        car_data_id: fleet.A.car_data_id,
        start_at: jst('08:30'),
        end_at: jst('12:00'),
        last_at: jst('12:00'),
        lat: 35.7,
        lng: 139.8,
        address: '東京都台東区上野7丁目',
        settled: true,
      },
      {
        car_data_id: fleet.A.car_data_id,
        start_at: jst('12:20'),
        end_at: null,
        last_at: jst('18:00'),
        lat: 35.71,
        lng: 139.81,
        address: null,
        settled: false,
      },
    ])
    .execute();
  // The per-day sums the fleet summary reads for whole days, as the detection job keeps them.
  await app.db.transaction().execute((trx) => refreshDays(trx, fleet.A.car_data_id, null));
}
