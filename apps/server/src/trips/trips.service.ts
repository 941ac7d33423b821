import { jstDayRange, tripMessages, type CallResult, type carTrips, type fleetSummary } from '@fleet/contract';
import type { Access } from '../access/access.js';
import { inWindows, type TimeWindow } from '../access/terminal-time.js';
import type { Db } from '../db/database.js';
import { badRequest, notFound } from '../http/errors.js';
import { addressesAt } from '../geocode/addresses.js';
import { averageSpeed } from './detect.js';
import { findFleetSummary, findTripsAndStops, type StopRow, type TripRow } from './trips.repository.js';

/**
 * The reports' reads, shared by the calls and the report export (docs/trips.md): each takes the caller's
 * Access, so the export sees exactly what the calls do.
 */

type CarTrips = CallResult<typeof carTrips>;

/** 400 for a terminal the caller cannot see: an unknown one and another company's answer alike. */
async function visibleTerminal(access: Access, carDataId: string): Promise<TimeWindow[] | null> {
  if (!(await access.sees('car_data_id', carDataId)))
    throw badRequest(tripMessages.unknownTerminal, { car_data_id: tripMessages.unknownTerminal });
  return access.windows(carDataId);
}

/** A stop cut to the windows it overlaps (the caller's company's time); a trip piece kept when it starts in one. */
function mask(rows: { trips: TripRow[]; stops: StopRow[] }, windows: TimeWindow[] | null) {
  if (windows === null) return rows;
  const trips = rows.trips.filter((t) => inWindows(t.start_at, windows));
  const stops: StopRow[] = [];
  for (const s of rows.stops) {
    const end = s.end_at ?? s.last_at;
    for (const w of windows) {
      const from = w.from === null || s.start_at > w.from ? s.start_at : w.from;
      const cutEnd = w.to !== null && end > w.to;
      const to = cutEnd ? w.to! : end;
      if (to < from || (to.getTime() === from.getTime() && from !== s.start_at)) continue;
      stops.push({
        ...s,
        start_at: from,
        end_at: cutEnd ? w.to : s.end_at,
        last_at: cutEnd ? w.to! : s.last_at,
      });
    }
  }
  return { trips, stops };
}

/** Pieces of one drive cut at midnight, both in the answer, are one trip again. */
function joinPieces(trips: TripRow[]): TripRow[] {
  const out: TripRow[] = [];
  for (const t of trips) {
    const prev = out.at(-1);
    if (prev && t.continued && prev.end_at.getTime() === t.start_at.getTime()) {
      out[out.length - 1] = {
        ...prev,
        end_at: t.end_at,
        end_lat: t.end_lat,
        end_lng: t.end_lng,
        end_address: t.end_address,
        distance_m: Math.round((prev.distance_m + t.distance_m) * 10) / 10,
        max_speed_kmh: Math.max(prev.max_speed_kmh, t.max_speed_kmh),
      };
    } else out.push(t);
  }
  return out;
}

const seconds = (from: Date, to: Date) => Math.max(0, Math.round((to.getTime() - from.getTime()) / 1000));

/** The trips and stops of a terminal over [from, to] as the caller may see them, oldest first (car_trips). */
export async function carTripsFor(
  db: Db,
  access: Access,
  q: { car_data_id: string; from: string; to: string },
): Promise<CarTrips> {
  const windows = await visibleTerminal(access, q.car_data_id);
  const found = mask(await findTripsAndStops(db, q.car_data_id, new Date(q.from), new Date(q.to)), windows);
  // Addresses from the geocode cache, never waited for (docs/geocoding.md); the unknown ones are queued.
  const addressOf = await addressesAt(
    db,
    [
      ...found.trips.flatMap((t) => [
        { lat: t.start_lat, lng: t.start_lng },
        { lat: t.end_lat, lng: t.end_lng },
      ]),
      ...found.stops,
    ],
    { queue: true },
  );
  return {
    trips: joinPieces(found.trips).map((t) => ({
      start_at: t.start_at,
      end_at: t.end_at,
      start_lat: t.start_lat,
      start_lng: t.start_lng,
      end_lat: t.end_lat,
      end_lng: t.end_lng,
      start_address: t.start_address ?? addressOf(t.start_lat, t.start_lng),
      end_address: t.end_address ?? addressOf(t.end_lat, t.end_lng),
      distance_m: t.distance_m,
      duration_s: seconds(t.start_at, t.end_at),
      max_speed_kmh: t.max_speed_kmh,
      avg_speed_kmh: averageSpeed(t.distance_m, t.start_at.getTime(), t.end_at.getTime()),
    })),
    stops: found.stops.map((s) => ({
      start_at: s.start_at,
      end_at: s.end_at,
      lat: s.lat,
      lng: s.lng,
      address: s.address ?? addressOf(s.lat, s.lng),
      duration_s: seconds(s.start_at, s.end_at ?? s.last_at),
    })),
  };
}

/**
 * One vehicle's JST day (運行日報): its trips and stops as car_trips gives them for the day `date`
 * ('YYYY-MM-DD'). A trip across midnight shows its part of the day; a stop keeps its whole time.
 */
export async function dailyTripsFor(db: Db, access: Access, carDataId: string, date: string): Promise<CarTrips> {
  const range = jstDayRange(date);
  if (!range) throw badRequest(tripMessages.day, { date: tripMessages.day });
  return carTripsFor(db, access, { car_data_id: carDataId, ...range });
}

type Summary = CallResult<typeof fleetSummary>;

/**
 * The fleet summary over [from, to]: one row per live vehicle of the caller's company (the super admin:
 * of `company_id`, or of every company), and the totals.
 */
export async function fleetSummaryFor(
  db: Db,
  access: Access,
  q: { from: string; to: string; company_id?: string | undefined; group_id?: string | null | undefined },
): Promise<Summary> {
  if (q.company_id !== undefined && !(await access.sees('company_id', q.company_id))) throw notFound();
  const company = access.companyFilter(q.company_id);
  const rows = await findFleetSummary(db, {
    company,
    groups: access.groups,
    groupId: q.group_id,
    from: new Date(q.from),
    to: new Date(q.to),
  });
  const total = { distance_m: 0, driving_s: 0, trips: 0 };
  for (const r of rows) {
    total.distance_m += r.distance_m;
    total.driving_s += r.driving_s;
    total.trips += r.trips;
  }
  total.distance_m = Math.round(total.distance_m * 10) / 10;
  return { rows, total };
}
