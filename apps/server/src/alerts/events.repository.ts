import { CAR_EVENTS_MAX, alertKindLabels, type AlertKind, type CarEvent, type FromDb } from '@fleet/contract';
import { sql, type SqlBool } from 'kysely';
/** A stretch of the terminal's time the caller may read (access.windows), open at either end where null. */
interface TimeWindow {
  from: Date | null;
  to: Date | null;
}
import type { Db } from '../db/database.js';
import { terminalAlerts } from './alerts.repository.js';

/**
 * A terminal's timeline (car_events, docs/zones.md "Timeline"): zone crossings and alerts from the inbox,
 * trips from the trip detection (start and end), engine command results, oldest first. Like the logs, a
 * company reads what happened while the terminal was on its vehicles (`windows`, null: everything).
 */
export interface EventQuery {
  car_data_id: string;
  from: string | null;
  to: string | null;
  windows: readonly TimeWindow[] | null;
}

const within = (windows: readonly TimeWindow[] | null, at: number) =>
  windows === null ||
  windows.some((w) => (w.from === null || at >= w.from.getTime()) && (w.to === null || at < w.to.getTime()));

const ranged = (column: string, q: EventQuery) =>
  sql<SqlBool>`${sql.ref(column)} >= ${q.from ?? '-infinity'}::timestamptz AND ${sql.ref(column)} <= ${q.to ?? 'infinity'}::timestamptz`;

export async function carEventsOf(
  db: Db,
  q: EventQuery,
): Promise<{ events: FromDb<typeof CarEvent>[]; truncated: boolean }> {
  const limit = CAR_EVENTS_MAX + 1;
  const alerts = await terminalAlerts(db, q.car_data_id, q.from, q.to, limit);
  const trips = await db
    .selectFrom('trips')
    .select(['start_at', 'end_at', 'start_lat', 'start_lng', 'end_lat', 'end_lng', 'distance_m', 'continued'])
    .where('car_data_id', '=', q.car_data_id)
    .where((eb) => eb.or([ranged('start_at', q), ranged('end_at', q)]))
    .orderBy('start_at')
    .limit(limit)
    .execute();
  const commands = await db
    .selectFrom('reserved_commands')
    .select(['cmd_type', 'cmd_info', 'result', 'result_at'])
    .where('car_data_id', '=', q.car_data_id)
    .where('result_at', 'is not', null)
    .where(ranged('result_at', q))
    .orderBy('result_at')
    .limit(limit)
    .execute();

  const events: FromDb<typeof CarEvent>[] = [];
  for (const a of alerts) {
    const zone = a.kind === 'zone_enter' || a.kind === 'zone_exit';
    events.push({
      type: zone ? (a.kind as 'zone_enter' | 'zone_exit') : 'alert',
      at: a.happened_at,
      lat: a.lat,
      lng: a.lng,
      ...(zone ? { zone_id: a.zone_id ?? undefined, zone_name: a.zone_name ?? undefined } : { item: a.kind }),
      what: zone ? a.what : `${alertKindLabels[a.kind as AlertKind] ?? a.kind}：${a.what}`,
    });
  }
  const inRange = (t: Date | string) => {
    const ms = new Date(t).getTime();
    return (!q.from || ms >= Date.parse(q.from)) && (!q.to || ms <= Date.parse(q.to));
  };
  for (const t of trips) {
    const km = (t.distance_m / 1000).toFixed(1);
    if (!t.continued && inRange(t.start_at))
      events.push({
        type: 'trip_start',
        at: t.start_at,
        lat: t.start_lat,
        lng: t.start_lng,
        what: '運行を開始しました',
      });
    if (inRange(t.end_at))
      events.push({
        type: 'trip_end',
        at: t.end_at,
        lat: t.end_lat,
        lng: t.end_lng,
        what: `運行を終了しました（${km} km）`,
      });
  }
  for (const c of commands) {
    const result = (typeof c.result === 'string' ? JSON.parse(c.result) : c.result) as { success?: boolean } | null;
    const info = (typeof c.cmd_info === 'string' ? JSON.parse(c.cmd_info) : c.cmd_info) as { cmd?: number } | null;
    const what =
      c.cmd_type === 'set_engine_boot_permission'
        ? info?.cmd === 1
          ? 'エンジン始動の禁止'
          : 'エンジン始動の許可'
        : c.cmd_type;
    events.push({
      type: 'command',
      at: c.result_at!,
      lat: null,
      lng: null,
      item: result?.success ? 'succeeded' : 'failed',
      what: `${what}：${result?.success ? '成功しました' : '失敗しました'}`,
    });
  }
  const visible = events
    .filter((e) => within(q.windows, new Date(e.at).getTime()))
    .sort((a, b) => new Date(a.at).getTime() - new Date(b.at).getTime());
  return { events: visible.slice(0, CAR_EVENTS_MAX), truncated: visible.length > CAR_EVENTS_MAX };
}
