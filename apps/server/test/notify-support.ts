import { DeviceRecord, type DeviceRecordInput, type NotifyItemKey, defaultNotifySettings } from '@fleet/contract';
import type { Db } from '../src/db/database.js';
import { MailDispatcher, type Log } from '../src/mail/mail-dispatcher.js';
import { createMailTransport, type MailTransport } from '../src/mail/mail-transport.js';
import { saveNotifySettings } from '../src/notify/settings.repository.js';

/** A clock the test moves by hand; nothing waits on real time. */
export function testClock(start = '2026-12-01T00:00:00Z') {
  let now = new Date(start);
  return {
    now: () => now,
    set: (at: Date | string) => {
      now = new Date(at);
    },
    advance: (ms: number) => {
      now = new Date(now.getTime() + ms);
    },
  };
}
export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

/** A log that keeps what it was told, for assertions. */
export function memoryLog() {
  const lines: { level: string; obj: object; msg: string }[] = [];
  const at = (level: string) => (obj: object, msg: string) => void lines.push({ level, obj, msg });
  const log: Log = { info: at('info'), warn: at('warn'), error: at('error'), debug: at('debug') };
  return { log, lines };
}

export const PUBLIC_URL = 'https://fleet.example.jp';
export const MAIL_FROM = 'フリートコンソール <no-reply@fleet.example.jp>';

export function dispatcherFor(db: Db, smtp: string | MailTransport | null, clock: () => Date) {
  const transport = typeof smtp === 'string' ? createMailTransport(smtp) : smtp;
  return new MailDispatcher({ db, transport, from: MAIL_FROM, log: memoryLog().log, clock });
}

/** Device records as the gateway hands them over (validated by the contract). */
export const rec = (r: DeviceRecordInput): DeviceRecord => DeviceRecord.parse(r);
export const iso = (d: Date, plusMs = 0) => new Date(d.getTime() + plusMs).toISOString();

/** Switches exactly the given items on for one account (param where the item has one). */
export async function subscribe(
  db: Db,
  accountId: string,
  items: Partial<Record<NotifyItemKey, number | null>>,
  email = '',
) {
  const s = defaultNotifySettings();
  s.email = email;
  for (const [k, param] of Object.entries(items) as [NotifyItemKey, number | null][]) {
    s[k] = { enable: true, param: param ?? s[k].param };
  }
  await saveNotifySettings(db, accountId, s);
}

/** Forgets every setting, event, mail and telemetry state: each test starts from the fixtures. */
export async function resetNotifyState(db: Db) {
  await db.deleteFrom('notification_settings').execute();
  await db.deleteFrom('notification_events').execute();
  await db.deleteFrom('mail_outbox').execute();
  await db.deleteFrom('vehicle_motion').execute();
  await db.deleteFrom('device_latest_state').execute();
  await db.deleteFrom('areas').execute();
  await db.updateTable('cars').set({ lat_min: null, lat_max: null, lng_min: null, lng_max: null }).execute();
}

/** A terminal's latest state as the gateway keeps it. */
export async function setLatestState(db: Db, carDataId: string, s: { last_seen_at: Date; lat?: number; lng?: number }) {
  await db
    .insertInto('device_latest_state')
    .values({
      car_data_id: carDataId,
      recorded_at: s.last_seen_at,
      last_seen_at: s.last_seen_at,
      lat: s.lat ?? null,
      lng: s.lng ?? null,
      speed: null,
      heading: null,
      engine_running: null,
      engine_line: null,
      connection: null,
      device_state: null,
      battery_voltage: null,
      battery_percentage: null,
      position_at: null,
      engine_running_at: null,
      engine_line_at: null,
      connection_at: null,
      device_state_at: null,
      battery_at: null,
    })
    .onConflict((oc) =>
      oc.column('car_data_id').doUpdateSet({ last_seen_at: s.last_seen_at, lat: s.lat ?? null, lng: s.lng ?? null }),
    )
    .execute();
}
