import { toWireTimeOrNull as iso, type CarListState, type TelemetryState } from '@fleet/contract';
import { sql, type RawBuilder, type Selectable } from 'kysely';
import type { Db } from '../db/database.js';
import type { DeviceLatestStateTable } from '../db/schema.js';
import { deviceStateOf, type LatestPatch } from './latest-patch.js';
import { logOrder } from './log-order.js';
import { partSince, pushedPart, type StateRow as TimedRow } from '../access/terminal-time.js';

type Row = Selectable<DeviceLatestStateTable>;

/** A stored row, or anything with the state's fields (a LiveRecord): the state alone. */
type StateRow = Omit<TelemetryState, 'recorded_at' | 'last_seen_at'> & {
  recorded_at: Date | string | null;
  last_seen_at: Date | string;
};

export const toTelemetryState = (r: StateRow): TelemetryState => ({
  car_data_id: r.car_data_id,
  recorded_at: iso(r.recorded_at),
  lat: r.lat,
  lng: r.lng,
  speed: r.speed,
  heading: r.heading,
  engine_running: r.engine_running,
  engine_line: r.engine_line,
  connection: r.connection,
  device_state: r.device_state,
  battery_voltage: r.battery_voltage,
  battery_percentage: r.battery_percentage,
  last_seen_at: iso(r.last_seen_at)!,
});

/** Each field group's time column (the time of the record its fields came from). */
type GroupTimes = Pick<Row, (typeof stateGroups)[number][0]>;

/**
 * A latest state as the live hub carries it: besides the state, what each
 * stream needs to decide on its own whether its company may see it and which
 * field groups (live.routes.ts), read in the statement that stored the state.
 * Not sent as is: a stream sends a LiveState.
 */
export type LiveRecord = TelemetryState & { [K in keyof GroupTimes]: string | null } & {
  /** The company of the live vehicle carrying the terminal, or null (on none, or no open period: nobody's). */
  owner_company_id: string | null;
  owner_car_id: string | null;
  /** When that company's open terminal period began; null: since ever. */
  period_started_at: string | null;
};

interface OwnerRow {
  owner_company_id: string | null;
  owner_car_id: string | null;
  period_started_at: Date | string | null;
}

/**
 * A terminal period's start as a record's time is compared with it (stateSince): rounded up to the
 * millisecond, because records' times and JS dates have no finer, so a record of the period's very
 * millisecond counts as in it; null for '-infinity' (since ever), which needs no comparison at all.
 */
const comparableStart = (startedAt: RawBuilder<unknown>) =>
  sql<Date | null>`date_trunc('milliseconds', nullif(${startedAt}, '-infinity') + interval '999 microseconds')`;

/**
 * The owner of a terminal (text SQL expression) for a LiveRecord, as a LATERAL
 * subquery: its live vehicle, and the company only with an open period of the
 * terminal (as readableStates joins it), with the period's start (comparableStart).
 */
export const liveOwner = (carDataId: RawBuilder<unknown>) => sql`SELECT v.car_id AS owner_car_id,
    CASE WHEN p.started_at IS NOT NULL THEN v.company_id END AS owner_company_id,
    ${comparableStart(sql`p.started_at`)} AS period_started_at
  FROM cars AS v LEFT JOIN terminal_periods AS p
    ON p.car_data_id = v.car_data_id AND p.company_id = v.company_id AND p.ended_at IS NULL
  WHERE v.car_data_id = ${carDataId} AND NOT v.is_delete
  ORDER BY v.car_id, p.started_at DESC LIMIT 1`;

/** toTelemetryState's sibling: a stored row with its owner (liveOwner; none: nobody's) as a LiveRecord. */
export const toLiveRecord = (r: Row & Partial<OwnerRow>): LiveRecord => ({
  ...toTelemetryState(r),
  position_at: iso(r.position_at),
  engine_running_at: iso(r.engine_running_at),
  engine_line_at: iso(r.engine_line_at),
  connection_at: iso(r.connection_at),
  device_state_at: iso(r.device_state_at),
  battery_at: iso(r.battery_at),
  owner_company_id: r.owner_company_id ?? null,
  owner_car_id: r.owner_car_id ?? null,
  period_started_at: iso(r.period_started_at ?? null),
});

/** The stored latest state of a terminal with its owner now, for a live push; null when none is stored. */
export async function findLiveRecord(db: Db, carDataId: string): Promise<LiveRecord | null> {
  const { rows } = await sql<Row & OwnerRow>`SELECT s.*, o.* FROM device_latest_state AS s
    LEFT JOIN LATERAL (${liveOwner(sql`s.car_data_id`)}) AS o ON true
    WHERE s.car_data_id = ${carDataId}`.execute(db);
  return rows[0] ? toLiveRecord(rows[0]) : null;
}

/** The incoming group time is set and not older than the stored one. */
const newer = (at: string) =>
  sql`(excluded.${sql.ref(at)} IS NOT NULL AND (device_latest_state.${sql.ref(at)} IS NULL OR excluded.${sql.ref(at)} >= device_latest_state.${sql.ref(at)}))`;
const pick = (at: string, column: string, keepWhenNull = false) => {
  const incoming = keepWhenNull
    ? sql`COALESCE(excluded.${sql.ref(column)}, device_latest_state.${sql.ref(column)})`
    : sql`excluded.${sql.ref(column)}`;
  return sql`${sql.ref(column)} = CASE WHEN ${newer(at)} THEN ${incoming} ELSE device_latest_state.${sql.ref(column)} END`;
};
const latest = (column: string) =>
  sql`${sql.ref(column)} = GREATEST(device_latest_state.${sql.ref(column)}, excluded.${sql.ref(column)})`;

/** Each group's columns and the column holding the time of the record they came from. */
const mergeRules = [
  pick('position_at', 'lat'),
  pick('position_at', 'lng'),
  pick('position_at', 'speed'),
  pick('position_at', 'heading'),
  latest('position_at'),
  pick('engine_running_at', 'engine_running'),
  latest('engine_running_at'),
  pick('engine_line_at', 'engine_line'),
  latest('engine_line_at'),
  pick('connection_at', 'connection'),
  latest('connection_at'),
  // A batch without error records brings 0 with no time (deviceStateOf): it fills a state never set, nothing else.
  sql`device_state = CASE WHEN ${newer('device_state_at')} THEN excluded.device_state ELSE COALESCE(device_latest_state.device_state, excluded.device_state) END`,
  latest('device_state_at'),
  pick('battery_at', 'battery_voltage', true),
  pick('battery_at', 'battery_percentage', true),
  latest('battery_at'),
  latest('recorded_at'),
  sql`last_seen_at = excluded.last_seen_at`,
];

/**
 * The upsert merging one batch into a terminal's latest state, group by group;
 * each group only moves forward in time. Plain SQL (INSERT ... SELECT) so the
 * gateway can run it as part of its one-statement batch, behind `guard`.
 */
export function latestStateUpsert(
  carDataId: string,
  p: LatestPatch,
  guard: RawBuilder<unknown> = sql``,
): RawBuilder<unknown> {
  const t = (v: string | null | undefined) => sql`${v ?? null}::timestamptz`;
  const f = (v: number | null | undefined) => sql`${v ?? null}::float8`;
  const s = (v: string | null | undefined) => sql`${v ?? null}::text`;
  return latestStateUpsertFrom(sql`SELECT ${carDataId}::text, ${t(p.recorded_at)},
      ${f(p.position?.value.lat)}, ${f(p.position?.value.lng)}, ${f(p.position?.value.speed)}, ${f(p.position?.value.heading)}, ${t(p.position?.at)},
      ${s(p.engine_running?.value)}, ${t(p.engine_running?.at)}, ${s(p.engine_line?.value)}, ${t(p.engine_line?.at)},
      ${s(p.connection?.value)}, ${t(p.connection?.at)}, ${deviceStateOf(p)}::int, ${t(p.device_state?.at)},
      ${f(p.battery?.value.voltage)}, ${f(p.battery?.value.percentage)}, ${t(p.battery?.at)}, now()
    ${guard}`);
}

/** The columns latestStateUpsertFrom's source yields, in order. */
export const LATEST_STATE_COLUMNS = [
  'car_data_id',
  'recorded_at',
  'lat',
  'lng',
  'speed',
  'heading',
  'position_at',
  'engine_running',
  'engine_running_at',
  'engine_line',
  'engine_line_at',
  'connection',
  'connection_at',
  'device_state',
  'device_state_at',
  'battery_voltage',
  'battery_percentage',
  'battery_at',
  'last_seen_at',
] as const;

/**
 * The same merge for rows of any SELECT with the columns of LATEST_STATE_COLUMNS
 * in that order (several terminals at once, each at most once).
 */
export function latestStateUpsertFrom(source: RawBuilder<unknown>): RawBuilder<unknown> {
  return sql`INSERT INTO device_latest_state (${sql.raw(LATEST_STATE_COLUMNS.join(', '))})
    ${source}
    ON CONFLICT (car_data_id) DO UPDATE SET ${sql.join(mergeRules)}`;
}

/** Merges one batch's patch on its own and returns the merged state, with its owner for the live push. */
export async function mergeLatestState(db: Db, carDataId: string, p: LatestPatch): Promise<LiveRecord> {
  const { rows } = await sql<Row & OwnerRow>`WITH m AS (${latestStateUpsert(carDataId, p)} RETURNING *)
    SELECT m.*, o.* FROM m LEFT JOIN LATERAL (${liveOwner(sql`m.car_data_id`)}) AS o ON true`.execute(db);
  return toLiveRecord(rows[0]!);
}

/** Each field group of the latest state after the column holding the time of the record it came from. */
const stateGroups = [
  ['position_at', 'lat', 'lng', 'speed', 'heading'],
  ['engine_running_at', 'engine_running'],
  ['engine_line_at', 'engine_line'],
  ['connection_at', 'connection'],
  ['device_state_at', 'device_state'],
  ['battery_at', 'battery_voltage', 'battery_percentage'],
] as const;

type Moment = Date | string | null;
/** A stored state or a LiveRecord: the state's times and each group's time and fields. */
type OwnedRow = { recorded_at: Moment; last_seen_at: Date | string } & {
  [K in (typeof stateGroups)[number][number]]: unknown;
};

/**
 * What a company may see of a state whose period began at `periodStartedAt`: access/terminal-time.ts's
 * partSince over the state's field groups (a group reported before the period is not the company's).
 */
const stateSince = <R extends OwnedRow>(r: R, periodStartedAt: Moment): R | null =>
  partSince(r as R & TimedRow, periodStartedAt, stateGroups);

/**
 * What a live stream scoped to `company` (null: the super admin) is pushed of a stored record
 * (terminal-time.ts pushedPart): the whole, or its owner company's part, or nothing.
 */
export function pushedStateOf(r: LiveRecord, company: string | null): TelemetryState | null {
  const own = pushedPart(r as LiveRecord & TimedRow, company, stateGroups);
  return own && toTelemetryState(own);
}

/**
 * Latest states a company may read (null: every company's): the terminal is on one of the
 * company's live vehicles now and was already when it reported the state (terminal_periods).
 * A terminal that moved to another company's vehicle reports nothing to the old company.
 * The one place this join is written: readableRows and readableStateJson select from it, with the
 * period's start (readablePeriodStart), and `stateSince` keeps what the company may see.
 */
function readableStates(db: Db, company: string | null) {
  return db
    .selectFrom('device_latest_state as s')
    .$if(company !== null, (q) =>
      q.innerJoin('terminal_periods as p', (join) =>
        join.onRef('p.car_data_id', '=', 's.car_data_id').on('p.company_id', '=', company).on('p.ended_at', 'is', null),
      ),
    );
}

/** The start of the company's period readableStates joined (null: every company's, since ever). */
const readablePeriodStart = (company: string | null) =>
  company === null ? sql<Date | null>`null` : comparableStart(sql`p.started_at`);

/**
 * The stored rows of the given terminals (null: every terminal) as the company may see them (stateSince),
 * in terminal order; a row it may not read at all is left out.
 */
async function readableRows(db: Db, company: string | null, ids: readonly string[] | null) {
  let q = readableStates(db, company).selectAll('s').select(readablePeriodStart(company).as('period_started_at'));
  if (ids !== null) q = q.where('s.car_data_id', 'in', ids);
  const rows = await q.orderBy('s.car_data_id').execute();
  return rows.flatMap((r) => stateSince(r, r.period_started_at) ?? []);
}

/** The latest state's time columns: LATEST_STATE_COLUMNS ending in _at, and recorded_at. */
const isTime = (column: string) => column === 'recorded_at' || column.endsWith('_at');

/**
 * A timestamptz as the JSON of its UTC wall time: json_build_array writes a timestamp as
 * 'YYYY-MM-DDTHH:MM:SS[.ffffff]' whatever the session's time zone and DateStyle, and wireOfUtcJson cuts
 * the wire's canonical text from it. Not to_char: a vehicles page formats 120 of them, and to_char made
 * a large share of the page's CPU in PostgreSQL (bench/README.md, Measurements behind the code: Lists); the driver still parses no date.
 */
const AT_UTC = " AT TIME ZONE 'UTC'";
const utcJson = (column: RawBuilder<unknown>) => sql`(${column}${sql.raw(AT_UTC)})`;

const UTC_JSON = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(?:\.(\d{1,6}))?/;

/**
 * utcJson's text as the wire's canonical text ('2026-11-23T01:02:03.000Z', toWireTime's form): sub-millisecond
 * digits cut, as the driver's Date cuts them (and to_char's MS did).
 */
export function wireOfUtcJson(text: string | null): string | null {
  if (text === null) return null;
  const m = UTC_JSON.exec(text);
  // A year past 9999 (no terminal's time: the protocol's ISO 8601 has four digits) is left for the response schema to refuse.
  if (!m) return `${text}Z`;
  return `${m[1]}.${(m[2] ?? '').slice(0, 3).padEnd(3, '0')}Z`;
}

/**
 * json_build_array arguments for these columns of the state, in order: fixed text (column names only),
 * made once per set, so a list's call does not build and compile a node per column. An array, not an
 * object: the names would be most of the text every row carries and the driver parses.
 */
const jsonValues = (columns: readonly string[]) =>
  sql.raw(columns.map((c) => (isTime(c) ? `(s.${c}${AT_UTC})` : `s.${c}`)).join(', '));

/** The fields of the vehicle list's part of a state (CarListState), and recorded_at (the time of a group without one). */
const LIST_FIELDS = new Set([
  'recorded_at',
  'engine_running',
  'engine_line',
  'connection',
  'device_state',
  'last_seen_at',
]);

/**
 * The list's part of LATEST_STATE_COLUMNS, in their order: its fields and each one's group time (`<field>_at`), what
 * stateSince needs to mask them. The rest (position, battery) is most of a whole state's text, which a list never shows.
 */
const LIST_STATE_COLUMNS = LATEST_STATE_COLUMNS.filter(
  (c) => LIST_FIELDS.has(c) || LIST_FIELDS.has(c.replace(/_at$/, '')),
);

/** The whole state (LATEST_STATE_COLUMNS) or the list's part (LIST_STATE_COLUMNS). */
export type StatePart = 'whole' | 'list';
const partOf = (columns: readonly string[]) => ({ columns, times: columns.map(isTime), values: jsonValues(columns) });
const PARTS = { whole: partOf(LATEST_STATE_COLUMNS), list: partOf(LIST_STATE_COLUMNS) } as const;

/** A stored state as one JSON array: its part's columns in order (times as utcJson), then the period start (the same). */
export type LatestStateJson = unknown[];

/** What readableStateJson's array holds, by name. */
type StateOfJson = StateRow & { [K in keyof GroupTimes]: string | null };

/**
 * The latest state a company may read of one terminal as a scalar subquery of a page's statement (alias it
 * with `.as()` in the select): the terminal's state (the whole, or the list's part) with the company's open
 * period as one JSON array (LatestStateJson; null: none the company may read), so a list reads its rows'
 * states in its own statement, without a second round trip and without parsing a Date a column. Read it
 * with wholeStateFromJson or listStateFromJson. Every column is named (a prepared statement's result must
 * not change).
 */
export function readableStateJson(db: Db, carDataId: RawBuilder<unknown>, company: string | null, part: StatePart) {
  const period = company === null ? sql`null` : utcJson(readablePeriodStart(company));
  return readableStates(db, company)
    .select(sql<LatestStateJson>`json_build_array(${PARTS[part].values}, ${period})`.as('state'))
    .where(sql<boolean>`s.car_data_id = ${carDataId}`)
    .$if(company !== null, (q) => q.orderBy(sql`p.started_at`, 'desc').limit(1));
}

/** An array of readableStateJson by column name, as its company may see it (stateSince); null when none. */
function fromStateJson(values: LatestStateJson | null, part: StatePart): StateOfJson | null {
  if (!values) return null;
  const { columns, times } = PARTS[part];
  const state = {} as Record<string, unknown>;
  for (let i = 0; i < columns.length; i++)
    state[columns[i]!] = times[i] ? wireOfUtcJson(values[i] as string | null) : values[i];
  return stateSince(state as StateOfJson, wireOfUtcJson(values[columns.length] as string | null));
}

/** The whole state readableStateJson read, as its company may see it; null when none. */
export function wholeStateFromJson(values: LatestStateJson | null): TelemetryState | null {
  const own = fromStateJson(values, 'whole');
  return own && toTelemetryState(own);
}

/** The list's part readableStateJson read, as its company may see it; null when none. */
export function listStateFromJson(values: LatestStateJson | null): CarListState | null {
  const own = fromStateJson(values, 'list');
  return (
    own && {
      engine_running: own.engine_running,
      engine_line: own.engine_line,
      connection: own.connection,
      device_state: own.device_state,
      last_seen_at: iso(own.last_seen_at)!,
    }
  );
}

/** The stored row of a terminal's latest state, if the company may read it. */
export async function findLatestStateRow(db: Db, carDataId: string, company: string | null) {
  return (await readableRows(db, company, [carDataId]))[0];
}

export async function findLatestState(
  db: Db,
  carDataId: string,
  company: string | null,
): Promise<TelemetryState | null> {
  const row = await findLatestStateRow(db, carDataId, company);
  return row ? toTelemetryState(row) : null;
}

/** Latest states of the given terminals, or of all terminals when ids is null, that the company may read. */
export async function listLatestStates(
  db: Db,
  ids: readonly string[] | null,
  company: string | null,
): Promise<TelemetryState[]> {
  if (ids !== null && ids.length === 0) return [];
  return (await readableRows(db, company, ids)).map(toTelemetryState);
}

/**
 * Past data sync (car_data_sync): rebuilds the latest state from the stored
 * logs alone, replacing whatever the merges left. Null when nothing is stored.
 */
export async function rebuildLatestState(db: Db, carDataId: string): Promise<TelemetryState | null> {
  const newestEngine = () =>
    db
      .selectFrom('engine_logs')
      .where('car_data_id', '=', carDataId)
      .orderBy(logOrder('engine_logs').newestFirst)
      .limit(1);
  // One after another: inside a transaction they share one connection anyway.
  const gps = await db
    .selectFrom('gps_logs')
    .select(['recorded_at', 'lat', 'lng', 'speed', 'heading'])
    .where('car_data_id', '=', carDataId)
    .orderBy(logOrder('gps_logs').newestFirst)
    .limit(1)
    .executeTakeFirst();
  const running = await newestEngine()
    .select(['recorded_at', 'running'])
    .where('running', 'is not', null)
    .executeTakeFirst();
  const line = await newestEngine()
    .select(['recorded_at', 'engine_line'])
    .where('engine_line', 'is not', null)
    .executeTakeFirst();
  const conn = await db
    .selectFrom('connection_logs')
    .select(['recorded_at', 'state'])
    .where('car_data_id', '=', carDataId)
    .orderBy(logOrder('connection_logs').newestFirst)
    .limit(1)
    .executeTakeFirst();
  const err = await db
    .selectFrom('error_logs')
    .select(['recorded_at', 'status_code'])
    .where('car_data_id', '=', carDataId)
    .orderBy(logOrder('error_logs').newestFirst)
    .limit(1)
    .executeTakeFirst();
  const battery = await db
    .selectFrom('battery_logs')
    .select(['recorded_at', 'voltage', 'percentage'])
    .where('car_data_id', '=', carDataId)
    .orderBy(logOrder('battery_logs').newestFirst)
    .limit(1)
    .executeTakeFirst();
  const times = [gps, running, line, conn, err, battery].flatMap((r) => (r ? [new Date(r.recorded_at).getTime()] : []));
  const existing = await findLatestState(db, carDataId, null);
  if (times.length === 0 && !existing) return null;
  const values = {
    recorded_at: times.length ? new Date(Math.max(...times)) : null,
    lat: gps?.lat ?? null,
    lng: gps?.lng ?? null,
    speed: gps?.speed ?? null,
    heading: gps?.heading ?? null,
    position_at: gps?.recorded_at ?? null,
    engine_running: running?.running ?? null,
    engine_running_at: running?.recorded_at ?? null,
    engine_line: line?.engine_line ?? null,
    engine_line_at: line?.recorded_at ?? null,
    connection: conn?.state ?? null,
    connection_at: conn?.recorded_at ?? null,
    // No error record: normal once the terminal reported anything (deviceStateOf).
    device_state: err?.status_code ?? (times.length ? 0 : null),
    device_state_at: err?.recorded_at ?? null,
    battery_voltage: battery?.voltage ?? null,
    battery_percentage: battery?.percentage ?? null,
    battery_at: battery?.recorded_at ?? null,
  };
  const row = await db
    .insertInto('device_latest_state')
    .values({ car_data_id: carDataId, ...values })
    .onConflict((oc) => oc.column('car_data_id').doUpdateSet(values))
    .returningAll()
    .executeTakeFirstOrThrow();
  return toTelemetryState(row);
}

/** The terminal (car_data_id) a vehicle carries now; undefined for an unknown vehicle or one without. */
export async function terminalOfCar(db: Db, carId: string): Promise<string | null | undefined> {
  const car = await db.selectFrom('cars').select('car_data_id').where('car_id', '=', carId).executeTakeFirst();
  return car?.car_data_id;
}
