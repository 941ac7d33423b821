import type { NotifyItemKey, NotifyItemSetting } from '@fleet/contract';
import { formatJst } from '../mail/format.js';
import type { Finding } from './deliver.js';
import type { SweepVehicle } from './notification.repository.js';

/** stop_time_over is judged only while the terminal still reports: a silent one may just have lost power. */
export const IDLE_REPORT_WINDOW_MS = 15 * 60_000;

const MINUTE = 60_000;
const DAY = 86_400_000;

/** "2日3時間", "5時間12分", "45分". */
export function formatElapsed(ms: number): string {
  const minutes = Math.floor(ms / MINUTE);
  const d = Math.floor(minutes / 1440);
  const h = Math.floor((minutes % 1440) / 60);
  const m = minutes % 60;
  if (d > 0) return h > 0 ? `${d}日${h}時間` : `${d}日`;
  if (h > 0) return m > 0 ? `${h}時間${m}分` : `${h}時間`;
  return `${m}分`;
}

type Settings = Record<NotifyItemKey, NotifyItemSetting>;

/** The time-based items of docs/notifications.md for one vehicle and one account's settings. */
export function findSweepEvents(v: SweepVehicle, items: Settings, now: Date): Finding[] {
  const out: Finding[] = [];
  const t = now.getTime();
  const on = (k: 'device_lost' | 'car_negrected' | 'stop_time_over') =>
    items[k].enable && items[k].param !== null ? items[k].param : null;

  const lostAfter = on('device_lost');
  if (lostAfter !== null && v.last_seen_at && t - v.last_seen_at.getTime() >= lostAfter * MINUTE) {
    out.push({
      item: 'device_lost',
      at: now,
      since: v.last_seen_at,
      position: v.position,
      what: `端末から${formatElapsed(t - v.last_seen_at.getTime())}データが届いていません（最終受信 ${formatJst(v.last_seen_at)}、設定 ${lostAfter}分）`,
      detail: { last_seen_at: v.last_seen_at.toISOString(), param: lostAfter },
    });
  }

  const neglectedAfter = on('car_negrected');
  if (neglectedAfter !== null && v.moved_at && t - v.moved_at.getTime() >= neglectedAfter * DAY) {
    out.push({
      item: 'car_negrected',
      at: now,
      since: v.moved_at,
      position: v.position,
      what: `車両が${formatElapsed(t - v.moved_at.getTime())}移動していません（最後の移動 ${formatJst(v.moved_at)}、設定 ${neglectedAfter}日）`,
      detail: { moved_at: v.moved_at.toISOString(), param: neglectedAfter },
    });
  }

  const idleAfter = on('stop_time_over');
  const reporting = v.last_seen_at !== null && t - v.last_seen_at.getTime() <= IDLE_REPORT_WINDOW_MS;
  if (
    idleAfter !== null &&
    reporting &&
    v.engine_running === 'on' &&
    v.idle_since &&
    t - v.idle_since.getTime() >= idleAfter * MINUTE
  ) {
    out.push({
      item: 'stop_time_over',
      at: now,
      since: v.idle_since,
      position: v.position,
      what: `エンジンがかかったまま${formatElapsed(t - v.idle_since.getTime())}停車しています（停車開始 ${formatJst(v.idle_since)}、設定 ${idleAfter}分）`,
      detail: { idle_since: v.idle_since.toISOString(), param: idleAfter },
    });
  }
  return out;
}
