import { defaultTripSettings, type TripSettings } from '@fleet/contract';
import { sql, type Transaction } from 'kysely';
import type { Db } from '../db/database.js';
import { inGroup, inGroups } from '../access/visibility.js';
import type { DB } from '../db/schema.js';
import { GPS_ORDER } from '../telemetry/log-order.js';
import type { Position, StopSpan, TripPiece } from './detect.js';

/** All SQL of trips/ (docs/trips.md): the only writer of trips, stops, trip_days, trip_cursors, trip_scan and trip_settings. */

type Tx = Transaction<DB>;

// Settings -------------------------------------------------------------------------------------

export async function findTripSettings(db: Db, companyId: string | null): Promise<TripSettings> {
  if (companyId === null) return defaultTripSettings();
  const row = await db
    .selectFrom('trip_settings')
    .select(['stop_min_s', 'stop_radius_m', 'stop_speed_kmh', 'trip_min_m'])
    .where('company_id', '=', companyId)
    .executeTakeFirst();
  return row ?? defaultTripSettings();
}

export async function saveTripSettings(db: Db, companyId: string, s: TripSettings): Promise<void> {
  await db
    .insertInto('trip_settings')
    .values({ company_id: companyId, ...s })
    .onConflict((oc) => oc.column('company_id').doUpdateSet({ ...s, updated_at: sql`now()` }))
    .execute();
}

// The detection job's reads and writes ----------------------------------------------------------

/** Whether the run may go ahead: one instance at a time, for at most `leaseMs` (then another may take over). */
export async function claimScan(db: Db, leaseMs: number): Promise<number | null> {
  return db.transaction().execute(async (trx) => {
    const { rows } = await sql<{ locked: boolean }>`
      SELECT pg_try_advisory_xact_lock(hashtext('fleet:trips')) AS locked`.execute(trx);
    if (!rows[0]?.locked) return null;
    const row = await sql<{ last_id: string }>`
      UPDATE trip_scan SET leased_until = now() + ${`${leaseMs} milliseconds`}::interval
      WHERE id = 1 AND (leased_until IS NULL OR leased_until < now())
      RETURNING last_id`.execute(trx);
    return row.rows[0] ? Number(row.rows[0].last_id) : null;
  });
}

export async function releaseScan(db: Db, lastId: number): Promise<void> {
  await sql`UPDATE trip_scan SET last_id = greatest(last_id, ${lastId}), leased_until = NULL WHERE id = 1`.execute(db);
}

export interface TerminalNews {
  car_data_id: string;
  /** the oldest recorded_at among its positions the detection has not seen */
  min_at: Date;
  min_id: number;
  max_id: number;
}

/**
 * The terminals with positions the detection has not seen: those stored since the scan's place, looking
 * `lookback` ids behind it (ids are handed out before their transactions commit, so a lower one can appear
 * after a higher one was read), less what each terminal's cursor already took.
 */
export async function findTerminalNews(db: Db, afterId: number, lookback: number): Promise<TerminalNews[]> {
  const { rows } = await sql<{ car_data_id: string; min_at: Date | string; min_id: string; max_id: string }>`
    SELECT g.car_data_id, min(g.recorded_at) AS min_at, min(g.id) AS min_id, max(g.id) AS max_id
    FROM gps_logs g LEFT JOIN trip_cursors c ON c.car_data_id = g.car_data_id
    WHERE g.id > ${Math.max(0, afterId - lookback)} AND g.id > coalesce(c.through_id, 0)
    GROUP BY g.car_data_id
    ORDER BY min(g.id)`.execute(db);
  return rows.map((r) => ({
    car_data_id: r.car_data_id,
    min_at: new Date(r.min_at),
    min_id: Number(r.min_id),
    max_id: Number(r.max_id),
  }));
}

/** The newest id of the position log (where a scan that found nothing may move to). */
export async function lastPositionId(db: Db, afterId: number): Promise<number> {
  const { rows } = await sql<{ m: string | null }>`SELECT max(id) AS m FROM gps_logs WHERE id > ${afterId}`.execute(db);
  return rows[0]?.m ? Number(rows[0].m) : afterId;
}

export interface CursorRow {
  through_id: number;
  through_at: Date;
  state: unknown;
  cuts: string;
}

/** Locks the terminal for this transaction (another instance's run waits) and reads its cursor. */
export async function lockCursor(trx: Tx, carDataId: string): Promise<CursorRow | null> {
  await sql`SELECT pg_advisory_xact_lock(hashtext(${`fleet:trips|${carDataId}`}))`.execute(trx);
  const row = await trx
    .selectFrom('trip_cursors')
    .select(['through_id', 'through_at', 'state', 'cuts'])
    .where('car_data_id', '=', carDataId)
    .executeTakeFirst();
  if (!row) return null;
  return {
    through_id: Number(row.through_id),
    through_at: new Date(row.through_at),
    state: typeof row.state === 'string' ? JSON.parse(row.state) : row.state,
    cuts: row.cuts,
  };
}

export async function saveCursor(trx: Tx, carDataId: string, c: CursorRow): Promise<void> {
  const values = {
    through_id: c.through_id,
    through_at: c.through_at,
    state: JSON.stringify(c.state),
    cuts: c.cuts,
    updated_at: sql<Date>`now()`,
  };
  await trx
    .insertInto('trip_cursors')
    .values({ car_data_id: carDataId, ...values })
    .onConflict((oc) => oc.column('car_data_id').doUpdateSet(values))
    .execute();
}

/** The company whose rule applies: that of the live vehicle carrying the terminal, if any. */
export async function terminalCompany(trx: Tx, carDataId: string): Promise<string | null> {
  const row = await trx
    .selectFrom('cars')
    .select('company_id')
    .where('car_data_id', '=', carDataId)
    .where('is_delete', '=', false)
    .executeTakeFirst();
  return row?.company_id ?? null;
}

/** Where the terminal changed vehicles (its periods' finite bounds), epoch ms ascending. */
export async function periodBoundaries(trx: Tx, carDataId: string): Promise<number[]> {
  const { rows } = await sql<{ at: Date | string }>`
    SELECT DISTINCT b.at FROM terminal_periods p,
      LATERAL (VALUES (p.started_at), (p.ended_at)) AS b(at)
    WHERE p.car_data_id = ${carDataId} AND b.at IS NOT NULL AND b.at <> '-infinity'
    ORDER BY b.at`.execute(trx);
  return rows.map((r) => new Date(r.at).getTime());
}

/**
 * The settled stop a computation must start again from so that it covers `at`: the newest one that ended
 * before it (null: from the terminal's first position).
 */
export async function restartPoint(trx: Tx, carDataId: string, at: Date): Promise<Date | null> {
  const row = await trx
    .selectFrom('stops')
    .select('start_at')
    .where('car_data_id', '=', carDataId)
    .where('settled', '=', true)
    .where('end_at', '<', at)
    .orderBy('start_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row ? new Date(row.start_at) : null;
}

/** Forgets what was found from `from` on (everything when null), and what was not settled. */
export async function dropFrom(trx: Tx, carDataId: string, from: Date | null): Promise<void> {
  for (const table of ['trips', 'stops'] as const) {
    let q = trx.deleteFrom(table).where('car_data_id', '=', carDataId);
    if (from !== null) q = q.where((eb) => eb.or([eb('start_at', '>=', from), eb('settled', '=', false)]));
    await q.execute();
  }
}

export async function dropUnsettled(trx: Tx, carDataId: string): Promise<void> {
  await trx.deleteFrom('trips').where('car_data_id', '=', carDataId).where('settled', '=', false).execute();
  await trx.deleteFrom('stops').where('car_data_id', '=', carDataId).where('settled', '=', false).execute();
}

export async function insertFound(
  trx: Tx,
  carDataId: string,
  found: { trips: TripPiece[]; stops: StopSpan[] },
  settled: boolean,
): Promise<void> {
  if (found.trips.length)
    await trx
      .insertInto('trips')
      .values(
        found.trips.map((t) => ({
          car_data_id: carDataId,
          start_at: new Date(t.start_at),
          end_at: new Date(t.end_at),
          start_lat: t.start_lat,
          start_lng: t.start_lng,
          end_lat: t.end_lat,
          end_lng: t.end_lng,
          start_address: null,
          end_address: null,
          distance_m: t.distance_m,
          max_speed_kmh: t.max_speed_kmh,
          continued: t.continued,
          settled,
        })),
      )
      .execute();
  if (found.stops.length)
    await trx
      .insertInto('stops')
      .values(
        found.stops.map((s) => ({
          car_data_id: carDataId,
          start_at: new Date(s.start_at),
          end_at: s.end_at === null ? null : new Date(s.end_at),
          last_at: new Date(s.last_at),
          lat: s.lat,
          lng: s.lng,
          address: null,
          settled,
        })),
      )
      .execute();
}

/** The JST day of a timestamptz, in SQL (the session runs in UTC; no time zone database needed). */
const jstDay = (col: string) => sql.raw(`((${col} AT TIME ZONE 'UTC') + interval '9 hours')::date`);

/** The earliest start among the terminal's rows that are not settled (they are about to be replaced). */
export async function earliestUnsettled(trx: Tx, carDataId: string): Promise<Date | null> {
  const { rows } = await sql<{ at: Date | string | null }>`
    SELECT least((SELECT min(start_at) FROM trips WHERE car_data_id = ${carDataId} AND NOT settled),
                 (SELECT min(start_at) FROM stops WHERE car_data_id = ${carDataId} AND NOT settled)) AS at`.execute(
    trx,
  );
  return rows[0]?.at ? new Date(rows[0].at) : null;
}

/**
 * trip_days of the terminal from the JST day of `from` on (every day when null), summed again from its
 * pieces and stops, each under the vehicle (period) it fell in.
 */
export async function refreshDays(trx: Tx, carDataId: string, from: Date | null): Promise<void> {
  const day = from === null ? null : new Date(from.getTime() + 9 * 3600_000).toISOString().slice(0, 10);
  // The first instant of that day in Japan.
  const since = day === null ? null : new Date(Date.parse(`${day}T00:00:00+09:00`));
  const dayBound = day === null ? sql`true` : sql`day >= ${day}::date`;
  const startBound = since === null ? sql`true` : sql`x.start_at >= ${since}`;
  await sql`DELETE FROM trip_days WHERE car_data_id = ${carDataId} AND ${dayBound}`.execute(trx);
  await sql`
    INSERT INTO trip_days (car_data_id, day, car_id, company_id, distance_m, driving_s, trips, first_continued, stops, max_speed_kmh)
    SELECT ${carDataId}, u.day, u.car_id, u.company_id, sum(u.distance_m), sum(u.driving_s), sum(u.trips),
           bool_or(u.continued), sum(u.stops), max(u.max_speed_kmh)
    FROM (
      SELECT ${jstDay('x.start_at')} AS day, p.car_id, coalesce(p.company_id, '') AS company_id, x.distance_m,
             extract(epoch FROM x.end_at - x.start_at)::float8 AS driving_s, (NOT x.continued)::int AS trips,
             x.continued, 0 AS stops, x.max_speed_kmh
      FROM trips x JOIN terminal_periods p ON p.car_data_id = x.car_data_id
        AND x.start_at >= p.started_at AND (p.ended_at IS NULL OR x.start_at < p.ended_at)
      WHERE x.car_data_id = ${carDataId} AND ${startBound}
      UNION ALL
      SELECT ${jstDay('x.start_at')}, p.car_id, coalesce(p.company_id, ''), 0, 0, 0, false, 1, 0
      FROM stops x JOIN terminal_periods p ON p.car_data_id = x.car_data_id
        AND x.start_at >= p.started_at AND (p.ended_at IS NULL OR x.start_at < p.ended_at)
      WHERE x.car_data_id = ${carDataId} AND ${startBound}
    ) u
    GROUP BY u.day, u.car_id, u.company_id`.execute(trx);
}

export interface PositionRow extends Position {
  id: number;
}

/**
 * A position dated further ahead than this (a terminal whose clock is wrong) is left out: taken in, it would
 * move the cursor into the future and make every correct position after it look late.
 */
const FUTURE = '1 hour';

/**
 * Up to `limit` positions of the terminal after (at, id), oldest first, each with the ignition as the
 * terminal's engine log last stated it (`running` on / off; null when it never said).
 */
export async function readPositions(
  trx: Tx,
  carDataId: string,
  after: { at: Date | null; id: number },
  limit: number,
): Promise<PositionRow[]> {
  const at = after.at?.toISOString() ?? null;
  const bound =
    at === null
      ? sql<boolean>`true`
      : sql<boolean>`${GPS_ORDER.timeBound('>=', sql`${at}::timestamptz`)}
      AND (recorded_at > ${at}::timestamptz OR id > ${after.id})`;
  const { rows } = await sql<{
    id: string;
    recorded_at: Date | string;
    lat: number;
    lng: number;
    speed: number | null;
  }>`SELECT id, recorded_at, lat, lng, speed FROM gps_logs
     WHERE car_data_id = ${carDataId} AND ${bound} AND recorded_at <= now() + ${FUTURE}::interval
     ORDER BY ${GPS_ORDER.oldestFirst} LIMIT ${limit}`.execute(trx);
  if (!rows.length) return [];
  const first = new Date(rows[0]!.recorded_at);
  const last = new Date(rows[rows.length - 1]!.recorded_at);
  // The engine log's running state from the one before the first position to the last.
  const { rows: engine } = await sql<{ recorded_at: Date | string; running: string }>`
    (SELECT recorded_at, running FROM engine_logs
       WHERE car_data_id = ${carDataId} AND running IS NOT NULL AND recorded_at <= ${first}
       ORDER BY recorded_at DESC, id DESC LIMIT 1)
    UNION ALL
    (SELECT recorded_at, running FROM engine_logs
       WHERE car_data_id = ${carDataId} AND running IS NOT NULL AND recorded_at > ${first} AND recorded_at <= ${last}
       ORDER BY recorded_at, id)`.execute(trx);
  let e = 0;
  let ignition: boolean | null = null;
  return rows.map((r) => {
    const t = new Date(r.recorded_at).getTime();
    while (e < engine.length && new Date(engine[e]!.recorded_at).getTime() <= t) {
      const running = engine[e]!.running;
      ignition = running === 'on' ? true : running === 'off' ? false : null;
      e++;
    }
    return { id: Number(r.id), t, lat: r.lat, lng: r.lng, speed: r.speed, ignition };
  });
}

// Reads of the reports ---------------------------------------------------------------------------

export interface TripRow {
  start_at: Date;
  end_at: Date;
  start_lat: number;
  start_lng: number;
  end_lat: number;
  end_lng: number;
  start_address: string | null;
  end_address: string | null;
  distance_m: number;
  max_speed_kmh: number;
  continued: boolean;
}
export interface StopRow {
  start_at: Date;
  end_at: Date | null;
  last_at: Date;
  lat: number;
  lng: number;
  address: string | null;
}

/** A trip piece lies within one day in Japan: one starting a day before the range cannot reach into it. */
const PIECE_MAX_MS = 86_400_000;

/** The terminal's trip pieces and stops that overlap [from, to], oldest first. */
export async function findTripsAndStops(
  db: Db,
  carDataId: string,
  from: Date,
  to: Date,
): Promise<{ trips: TripRow[]; stops: StopRow[] }> {
  const trips = await db
    .selectFrom('trips')
    .select([
      'start_at',
      'end_at',
      'start_lat',
      'start_lng',
      'end_lat',
      'end_lng',
      'start_address',
      'end_address',
      'distance_m',
      'max_speed_kmh',
      'continued',
    ])
    .where('car_data_id', '=', carDataId)
    .where('start_at', '>=', new Date(from.getTime() - PIECE_MAX_MS))
    .where('start_at', '<=', to)
    .where('end_at', '>', from)
    .orderBy('start_at')
    .execute();
  // A stop may have begun long before the range: the one before it is read on its own.
  const { rows: stops } = await sql<StopRow>`
    (SELECT start_at, end_at, last_at, lat, lng, address FROM stops
       WHERE car_data_id = ${carDataId} AND start_at < ${from}
       ORDER BY start_at DESC LIMIT 1)
    UNION ALL
    (SELECT start_at, end_at, last_at, lat, lng, address FROM stops
       WHERE car_data_id = ${carDataId} AND start_at >= ${from} AND start_at <= ${to}
       ORDER BY start_at)`.execute(db);
  const date = (v: Date | string) => new Date(v);
  return {
    trips: trips.map((t) => ({ ...t, start_at: date(t.start_at), end_at: date(t.end_at) })),
    stops: stops
      .map((s) => ({
        ...s,
        start_at: date(s.start_at),
        end_at: s.end_at === null ? null : date(s.end_at),
        last_at: date(s.last_at),
      }))
      .filter((s) => (s.end_at ?? s.last_at).getTime() >= from.getTime())
      .sort((a, b) => a.start_at.getTime() - b.start_at.getTime()),
  };
}

export interface SummaryRow {
  car_id: string;
  car_number: string;
  car_data_id: string | null;
  distance_m: number;
  driving_s: number;
  trips: number;
  stops: number;
  max_speed_kmh: number;
}

/**
 * Per live vehicle (of `company`, or of every company when null): what the terminals it carried drove in
 * [from, to] while on it (its periods), summed from the trip pieces that start in the range. A piece that
 * goes on from the one before it (midnight) is no trip of its own unless it is the first in the range.
 */
/**
 * Which vehicles a summary counts: the company's (null: all), a group-limited reader's groups only, and the
 * group it is filtered by.
 */
export interface SummaryScope {
  company: string | null;
  groups?: readonly string[] | null;
  groupId?: string | null | undefined;
  from: Date;
  to: Date;
}

const vehiclesOf = (o: SummaryScope) =>
  sql<boolean>`${o.company === null ? sql`true` : sql`c.company_id = ${o.company}`} AND ${inGroups(sql.ref('c.car_id'), o.groups ?? null)} AND ${inGroup(sql.ref('c.car_id'), o.groupId)}`;

export async function findFleetSummary(db: Db, opts: SummaryScope): Promise<SummaryRow[]> {
  const { from, to } = opts;
  const DAY = 86_400_000;
  const JST = 9 * 3600_000;
  // Whole days in Japan (what the screens and reports ask for): a row per vehicle and day from trip_days.
  if ((from.getTime() + JST) % DAY === 0 && (to.getTime() + 1 + JST) % DAY === 0)
    return summaryByDays(db, opts, from, to);
  return summaryByPieces(db, opts);
}

async function summaryByDays(db: Db, opts: SummaryScope, from: Date, to: Date): Promise<SummaryRow[]> {
  const day = (d: Date) => new Date(d.getTime() + 9 * 3600_000).toISOString().slice(0, 10);
  const [first, last] = [day(from), day(to)];
  const own = vehiclesOf(opts);
  const { rows } = await sql<SummaryDbRow>`
    SELECT c.car_id, c.car_number, c.car_data_id,
           coalesce(d.distance_m, 0) AS distance_m, coalesce(d.driving_s, 0) AS driving_s,
           coalesce(d.trips, 0) AS trips, coalesce(d.stops, 0) AS stops, coalesce(d.max_speed_kmh, 0) AS max_speed_kmh
    FROM cars c
    LEFT JOIN LATERAL (
      SELECT sum(t.distance_m) AS distance_m, sum(t.driving_s) AS driving_s,
             sum(t.trips) + count(*) FILTER (WHERE t.day = ${first}::date AND t.first_continued) AS trips,
             sum(t.stops) AS stops, max(t.max_speed_kmh) AS max_speed_kmh
      FROM trip_days t
      WHERE t.car_id = c.car_id AND t.company_id = coalesce(c.company_id, '')
        AND t.day >= ${first}::date AND t.day <= ${last}::date
    ) d ON true
    WHERE NOT c.is_delete AND ${own}
    ORDER BY c.car_number, c.car_id`.execute(db);
  return rows.map(summaryRow);
}

interface SummaryDbRow {
  car_id: string;
  car_number: string;
  car_data_id: string | null;
  distance_m: number | string;
  driving_s: number | string;
  trips: number | string;
  stops: number | string;
  max_speed_kmh: number | string;
}
const summaryRow = (r: SummaryDbRow): SummaryRow => ({
  car_id: r.car_id,
  car_number: r.car_number,
  car_data_id: r.car_data_id,
  distance_m: Math.round(Number(r.distance_m) * 10) / 10,
  driving_s: Math.round(Number(r.driving_s)),
  trips: Number(r.trips),
  stops: Number(r.stops),
  max_speed_kmh: Number(r.max_speed_kmh),
});

/** Any other range: the pieces and stops themselves, each vehicle's through its periods. */
async function summaryByPieces(db: Db, opts: SummaryScope): Promise<SummaryRow[]> {
  const { from, to } = opts;
  const company = vehiclesOf(opts);
  const { rows } = await sql<SummaryDbRow>`
    SELECT c.car_id, c.car_number, c.car_data_id,
           coalesce(t.distance_m, 0) AS distance_m, coalesce(t.driving_s, 0) AS driving_s,
           coalesce(t.trips, 0) AS trips, coalesce(s.stops, 0) AS stops, coalesce(t.max_speed_kmh, 0) AS max_speed_kmh
    FROM cars c
    LEFT JOIN LATERAL (
      SELECT sum(x.distance_m) AS distance_m,
             extract(epoch FROM sum(x.end_at - x.start_at)) AS driving_s,
             count(*) FILTER (WHERE NOT x.continued OR x.start_at <= ${from}) AS trips,
             max(x.max_speed_kmh) AS max_speed_kmh
      FROM terminal_periods p
      JOIN trips x ON x.car_data_id = p.car_data_id
        AND x.start_at >= greatest(p.started_at, ${from}) AND x.start_at <= ${to}
        AND (p.ended_at IS NULL OR x.start_at < p.ended_at)
      WHERE p.car_id = c.car_id AND p.company_id IS NOT DISTINCT FROM c.company_id
        AND p.started_at <= ${to} AND (p.ended_at IS NULL OR p.ended_at > ${from})
    ) t ON true
    LEFT JOIN LATERAL (
      SELECT count(*) AS stops
      FROM terminal_periods p
      JOIN stops x ON x.car_data_id = p.car_data_id
        AND x.start_at >= greatest(p.started_at, ${from}) AND x.start_at <= ${to}
        AND (p.ended_at IS NULL OR x.start_at < p.ended_at)
      WHERE p.car_id = c.car_id AND p.company_id IS NOT DISTINCT FROM c.company_id
        AND p.started_at <= ${to} AND (p.ended_at IS NULL OR p.ended_at > ${from})
    ) s ON true
    WHERE NOT c.is_delete AND ${company}
    ORDER BY c.car_number, c.car_id`.execute(db);
  return rows.map(summaryRow);
}
