import { ordered, type Batch } from './telemetry-rules.js';

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
 * The fold runs on epoch milliseconds (the batch's times are read once, inTimeOrder); Dates are made
 * for the state it returns.
 */
export function foldMotion(prev: Motion | null, batch: Batch): Motion | null {
  let started = prev !== null;
  let movedAt = prev ? prev.moved_at.getTime() : 0;
  let anchor: { lat: number; lng: number } | null =
    prev && prev.anchor_lat !== null && prev.anchor_lng !== null
      ? { lat: prev.anchor_lat, lng: prev.anchor_lng }
      : null;
  let engine = prev ? prev.engine_running : null;
  let idleSince = prev?.idle_since ? prev.idle_since.getTime() : null;
  let last = prev ? prev.last_record_at.getTime() : 0;
  let changed = false;
  const order = ordered(batch);
  for (let i = 0; i < order.records.length; i++) {
    const r = order.records[i]!;
    if (r.type !== 'gps' && !(r.type === 'engine' && r.running != null)) continue;
    const at = order.times[i]!;
    if (started && at < last) continue;
    if (!started) {
      started = true;
      movedAt = at;
    }
    last = at;
    changed = true;
    if (r.type === 'engine') {
      engine = r.running!;
      // Engine started: standing until a GPS record says it drives off.
      if (r.running === 'on') idleSince ??= at;
      else idleSince = null;
      continue;
    }
    const moving = (r.speed ?? 0) >= MOVING_KMH || (anchor !== null && metresBetween(anchor, r) > MOVED_METRES);
    if (moving || !anchor) anchor = { lat: r.lat, lng: r.lng };
    if (moving) {
      movedAt = at;
      idleSince = null;
    } else if (engine === 'on') {
      idleSince ??= at;
    }
  }
  if (!changed) return null;
  return {
    moved_at: new Date(movedAt),
    // A previous state with half an anchor keeps what it had (as it was read).
    anchor_lat: anchor ? anchor.lat : (prev?.anchor_lat ?? null),
    anchor_lng: anchor ? anchor.lng : (prev?.anchor_lng ?? null),
    engine_running: engine,
    idle_since: idleSince === null ? null : new Date(idleSince),
    last_record_at: new Date(last),
  };
}
