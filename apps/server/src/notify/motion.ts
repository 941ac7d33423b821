import type { DeviceRecord } from '@fleet/contract';
import { byTime } from './telemetry-rules.js';

/**
 * Per terminal: when the vehicle last moved and since when it has stood with
 * the engine on. "Moved" means a GPS speed of at least MOVING_KMH or a
 * position more than MOVED_METRES from where it last moved (GPS drift of a
 * parked car stays inside that).
 */
export const MOVING_KMH = 5;
export const MOVED_METRES = 200;

export interface Motion {
  moved_at: Date;
  anchor_lat: number | null;
  anchor_lng: number | null;
  engine_running: string | null;
  idle_since: Date | null;
  last_record_at: Date;
}

/** Straight-line distance in metres; exact enough at a few hundred metres. */
export function metresBetween(a: { lat: number; lng: number }, b: { lat: number; lng: number }): number {
  const rad = Math.PI / 180;
  const x = (b.lng - a.lng) * rad * Math.cos(((a.lat + b.lat) / 2) * rad);
  const y = (b.lat - a.lat) * rad;
  return Math.hypot(x, y) * 6_371_000;
}

/**
 * Folds a batch into the motion state. Records older than the state are
 * skipped (a terminal flushing its buffer late must not move time backwards).
 * Returns null when the batch has nothing about movement or engine.
 */
export function foldMotion(prev: Motion | null, records: readonly DeviceRecord[]): Motion | null {
  let m = prev ? { ...prev } : null;
  let changed = false;
  for (const r of byTime(records)) {
    if (r.type !== 'gps' && !(r.type === 'engine' && r.running != null)) continue;
    const at = new Date(r.time);
    if (m && at < m.last_record_at) continue;
    m ??= {
      moved_at: at,
      anchor_lat: null,
      anchor_lng: null,
      engine_running: null,
      idle_since: null,
      last_record_at: at,
    };
    m.last_record_at = at;
    changed = true;
    if (r.type === 'engine') {
      m.engine_running = r.running!;
      // Engine started: standing until a GPS record says it drives off.
      if (r.running === 'on') m.idle_since ??= at;
      else m.idle_since = null;
      continue;
    }
    const pos = { lat: r.lat, lng: r.lng };
    const anchor = m.anchor_lat !== null && m.anchor_lng !== null ? { lat: m.anchor_lat, lng: m.anchor_lng } : null;
    const moving = (r.speed ?? 0) >= MOVING_KMH || (anchor !== null && metresBetween(anchor, pos) > MOVED_METRES);
    if (moving || !anchor) {
      m.anchor_lat = pos.lat;
      m.anchor_lng = pos.lng;
    }
    if (moving) {
      m.moved_at = at;
      m.idle_since = null;
    } else if (m.engine_running === 'on') {
      m.idle_since ??= at;
    }
  }
  return changed ? m : null;
}
