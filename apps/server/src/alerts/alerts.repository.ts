import type { AlertKind, AlertRow, FromDb } from '@fleet/contract';
import { commandFailedText } from '@fleet/contract';
import { sql } from 'kysely';
import { inGroups } from '../access/visibility.js';
import type { Db } from '../db/database.js';
import { anyColumnMatches, type ListColumn } from '../http/list-query.js';

/**
 * The channel every new, acknowledged or deleted alert is signalled on, with its company ('' for none):
 * by the triggers alerts_signal_insert, _update and _delete at commit, whoever wrote it (migration 2026_12_28_200000). The live
 * stream's alert count listens (live/live-hub.ts).
 */
export const ALERT_CHANNEL = 'fleet_alerts';

/** The alert inbox (docs/zones.md "Alerts"): one row per alert, written by whoever raises it, acknowledged once. */
export interface NewAlert {
  /** One alert per occurrence: the same key again is the same alert. */
  dedupe_key: string;
  company_id: string | null;
  car_id: string;
  car_data_id: string | null;
  kind: AlertKind;
  what: string;
  zone_id?: string | null;
  zone_name?: string | null;
  lat: number | null;
  lng: number | null;
  happened_at: Date;
}

export async function recordAlerts(db: Db, alerts: readonly NewAlert[], now: Date): Promise<number> {
  if (alerts.length === 0) return 0;
  const r = await db
    .insertInto('alerts')
    .values(alerts.map((a) => ({ ...a, zone_id: a.zone_id ?? null, zone_name: a.zone_name ?? null, created_at: now })))
    .onConflict((oc) => oc.column('dedupe_key').doNothing())
    .executeTakeFirst();
  return Number(r.numInsertedOrUpdatedRows ?? 0);
}

export interface AlertQuery {
  from: string | null;
  to: string | null;
  unacknowledged: boolean;
  kind?: AlertKind | undefined;
  search_text: string;
}
export interface AlertPage extends AlertQuery {
  offset: number;
  limit: number;
}

/** Whose alerts: a company's (null: every company, the super admin's), a group-limited account's groups' vehicles only. */
export interface AlertScope {
  company: string | null;
  groups: readonly string[] | null;
}

const scoped = (db: Db, scope: AlertScope) => {
  let q = db.selectFrom('alerts as al');
  if (scope.company !== null) q = q.where('al.company_id', '=', scope.company);
  if (scope.groups !== null) q = q.where(inGroups(sql.ref('al.car_id'), scope.groups));
  return q;
};

/** The vehicle's columns the inbox's search reads, matched as the vehicle list matches them. */
const carSearch: ListColumn[] = [
  { expr: sql.ref('c.car_number'), key: { expr: sql.ref('c.car_number_key') } },
  { expr: sql.ref('c.car_id') },
];

/** The inbox's alerts in the scope with their vehicle, filtered: the same for the page and its count. */
const filtered = (db: Db, scope: AlertScope, query: AlertQuery) => {
  let q = scoped(db, scope).innerJoin('cars as c', 'c.car_id', 'al.car_id');
  if (query.from) q = q.where('al.happened_at', '>=', new Date(query.from));
  if (query.to) q = q.where('al.happened_at', '<=', new Date(query.to));
  if (query.unacknowledged) q = q.where('al.acked_at', 'is', null);
  if (query.kind) q = q.where('al.kind', '=', query.kind);
  const search = anyColumnMatches(carSearch, query.search_text);
  if (search) q = q.where(search);
  return q;
};

/** One page, newest first. */
export async function listAlerts(db: Db, scope: AlertScope, query: AlertPage): Promise<FromDb<typeof AlertRow>[]> {
  const rows = await filtered(db, scope, query)
    .leftJoin('accounts as a', 'a.account_id', 'al.acked_by')
    .select([
      sql<string>`al.alert_id::text`.as('alert_id'),
      'al.kind',
      'al.what',
      'al.car_id',
      'c.car_number',
      'al.car_data_id',
      'al.zone_id',
      'al.zone_name',
      'al.lat',
      'al.lng',
      'al.happened_at',
      'al.acked_at',
      'al.acked_by',
      'a.name as acked_by_name',
    ])
    .orderBy('al.happened_at', 'desc')
    .orderBy('al.alert_id', 'desc')
    .offset(query.offset)
    .limit(query.limit)
    .execute();
  return rows.map((r) => ({ ...r, kind: r.kind as AlertKind }));
}

/** How many alerts the filter finds (every page). */
export async function countAlerts(db: Db, scope: AlertScope, query: AlertQuery): Promise<number> {
  const row = await filtered(db, scope, query)
    .select(sql<number>`count(*)::int`.as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function countUnacknowledged(db: Db, scope: AlertScope): Promise<number> {
  const row = await scoped(db, scope)
    .where('al.acked_at', 'is', null)
    .select(sql<number>`count(*)::int`.as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * Acknowledges an alert in the scope once: the first acknowledgement stands, whoever and wherever
 * (instance) it came from; a second answers the first one's who and when. Undefined: not in the scope.
 */
export async function acknowledge(db: Db, alertId: string, scope: AlertScope, accountId: string, now: Date) {
  const company_ = sql`${scope.company === null ? sql`true` : sql`company_id = ${scope.company}`} AND ${inGroups(sql.ref('alerts.car_id'), scope.groups)}`;
  const r = await sql<{ acked_at: Date; acked_by: string }>`
    WITH hit AS (
      UPDATE alerts SET acked_at = ${now}, acked_by = ${accountId}
      WHERE alert_id = ${alertId}::bigint AND acked_at IS NULL AND ${company_}
      RETURNING acked_at, acked_by)
    SELECT acked_at, acked_by FROM hit
    UNION ALL
    SELECT acked_at, acked_by FROM alerts WHERE alert_id = ${alertId}::bigint AND ${company_} AND NOT EXISTS (SELECT 1 FROM hit)`.execute(
    db,
  );
  const row = r.rows[0];
  // Acknowledged meanwhile by another instance: this statement's snapshot predates that commit.
  if (row && row.acked_at === null)
    return db
      .selectFrom('alerts')
      .select(['acked_at', 'acked_by'])
      .where('alert_id', '=', alertId)
      .executeTakeFirst() as Promise<{ acked_at: Date; acked_by: string }>;
  return row;
}

/**
 * The ids among `alertIds` in the scope, locked in id order until the transaction ends (so two bulk
 * acknowledgements never wait on each other crosswise). Run in the transaction that acknowledges them.
 */
export async function lockAlertsInScope(db: Db, alertIds: readonly string[], scope: AlertScope): Promise<string[]> {
  const rows = await scoped(db, scope)
    .select(sql<string>`al.alert_id::text`.as('alert_id'))
    .where(sql<boolean>`al.alert_id = any(${alertIds}::bigint[])`)
    .orderBy('al.alert_id')
    .forUpdate()
    .execute();
  return rows.map((r) => r.alert_id);
}

/** Acknowledges those of the alerts not acknowledged yet (the first acknowledgement stands); how many. */
export async function acknowledgeAll(db: Db, alertIds: readonly string[], accountId: string, now: Date) {
  const r = await db
    .updateTable('alerts')
    .set({ acked_at: now, acked_by: accountId })
    .where(sql<boolean>`alert_id = any(${alertIds}::bigint[])`)
    .where('acked_at', 'is', null)
    .executeTakeFirst();
  return Number(r.numUpdatedRows);
}

/** A terminal's alerts in a time range, oldest first (the timeline). */
export async function terminalAlerts(db: Db, carDataId: string, from: string | null, to: string | null, limit: number) {
  let q = db
    .selectFrom('alerts')
    .select(['kind', 'what', 'zone_id', 'zone_name', 'lat', 'lng', 'happened_at', 'company_id'])
    .where('car_data_id', '=', carDataId);
  if (from) q = q.where('happened_at', '>=', new Date(from));
  if (to) q = q.where('happened_at', '<=', new Date(to));
  return q.orderBy('happened_at').limit(limit).execute();
}

/**
 * Commands a terminal reported as failed, one alert each (kind command_failed), with the vehicle and company
 * the command was made for. Run in the transaction that stores the results.
 */
export async function recordCommandFailures(
  db: Db,
  failures: readonly { id: number; detail: string; time: string }[],
  now: Date,
) {
  if (failures.length === 0) return;
  const commands = await db
    .selectFrom('reserved_commands')
    .select(['id', 'cmd_type', 'cmd_info'])
    .where(
      'id',
      'in',
      failures.map((f) => f.id),
    )
    .where('car_id', 'is not', null)
    .execute();
  const byId = new Map(commands.map((c) => [Number(c.id), c]));
  const told = failures.flatMap((f) => {
    const c = byId.get(f.id);
    if (!c) return [];
    const info = (typeof c.cmd_info === 'string' ? JSON.parse(c.cmd_info) : c.cmd_info) as Record<
      string,
      unknown
    > | null;
    return [{ ...f, what: commandFailedText(c.cmd_type, info?.cmd, f.detail) }];
  });
  if (told.length === 0) return;
  await sql`
    INSERT INTO alerts (dedupe_key, company_id, car_id, car_data_id, kind, what, happened_at, created_at)
    SELECT 'command_failed:' || c.id, c.company_id, c.car_id, c.car_data_id, 'command_failed', f.what, f.time, ${now}
    FROM unnest(${told.map((f) => f.id)}::bigint[], ${told.map((f) => f.what)}::text[],
                ${told.map((f) => f.time)}::timestamptz[]) AS f(id, what, time)
    JOIN reserved_commands c ON c.id = f.id
    ON CONFLICT (dedupe_key) DO NOTHING`.execute(db);
}
