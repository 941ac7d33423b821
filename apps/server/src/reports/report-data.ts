import {
  CarTripsResponse,
  FleetSummaryResponse,
  jstDayOf,
  type CallResult,
  type carTrips,
  type fleetSummary,
} from '@fleet/contract';
import type { Db } from '../db/database.js';
import { findFleetSummary } from '../trips/trips.repository.js';
import type { DailyReportData, SummaryReportData } from './report-files.js';
import { companyNameOf } from './reports.repository.js';

/**
 * What a report file says, from what the trip calls answer (trips/trips.service.ts), shaped by the calls'
 * response schemas so a file and the screen show the same numbers.
 */
export const dailyReportData = (
  found: CallResult<typeof carTrips>,
  vehicle: { car_number: string; car_data_id: string },
  days: { from: string; to: string },
): DailyReportData => ({ ...vehicle, ...days, ...CarTripsResponse.parse(found) });

export async function summaryReportData(
  db: Db,
  found: CallResult<typeof fleetSummary>,
  company: string | null,
  range: { from: string; to: string },
): Promise<SummaryReportData> {
  return {
    ...FleetSummaryResponse.parse(found),
    from: jstDayOf(range.from),
    to: jstDayOf(range.to),
    company: company === null ? null : await companyNameOf(db, company),
  };
}

/**
 * The fleet summary of a scheduled report: the fleet_summary call's repository read for `company` (the
 * subscriber's scope, null: every company) over the instants [from, to].
 */
export async function scheduledSummary(db: Db, company: string | null, from: string, to: string) {
  const rows = await findFleetSummary(db, { company, from: new Date(from), to: new Date(to) });
  const total = { distance_m: 0, driving_s: 0, trips: 0 };
  for (const r of rows) {
    total.distance_m += r.distance_m;
    total.driving_s += r.driving_s;
    total.trips += r.trips;
  }
  total.distance_m = Math.round(total.distance_m * 10) / 10;
  return summaryReportData(db, { rows, total }, company, { from, to });
}
