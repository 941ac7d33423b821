import type { DeviceRecord } from '@fleet/contract';

/**
 * What one batch contributes to device_latest_state: per field group the
 * newest value in the batch and the time of the record it came from. The
 * database merge (latest-state.repository.ts) keeps a group's stored value
 * when it is newer, so records arriving late never roll the state back.
 */
export interface Timed<T> {
  at: string;
  value: T;
}
export interface LatestPatch {
  /** Time of the newest record of any kind, or null for a batch without records. */
  recorded_at: string | null;
  position?: Timed<{ lat: number; lng: number; speed: number | null; heading: number | null }>;
  engine_running?: Timed<string>;
  engine_line?: Timed<string>;
  connection?: Timed<string>;
  device_state?: Timed<number>;
  battery?: Timed<{ voltage: number | null; percentage: number | null }>;
}

/**
 * The device state a batch contributes: the status code of its newest error
 * record, else 0 (正常) for a batch that reported anything, else null. Terminals
 * report errors only when a fault starts or ends, so a terminal that reports
 * without ever having had a fault is normal. The merge takes the 0 only where
 * no state is stored yet, so an open fault stays until its recovery record
 * (docs/decisions.md "isNormal").
 */
export const deviceStateOf = (p: LatestPatch): number | null =>
  p.device_state?.value ?? (p.recorded_at !== null ? 0 : null);

/** An engine line change that does not come from a record of its own (a command result). */
export interface EngineLineChange {
  time: string;
  engine_line: string;
}

type Group = Exclude<keyof LatestPatch, 'recorded_at'>;

export function foldLatest(
  records: readonly DeviceRecord[],
  lineChanges: readonly EngineLineChange[] = [],
): LatestPatch {
  const patch: LatestPatch = { recorded_at: null };
  const times: Partial<Record<Group | 'any', number>> = {};
  // Later entries win ties: within a batch the order is the terminal's order.
  // Each entry's time is read once (`seen` parses it) and given to `offer` with it.
  let t = 0;
  const seen = (time: string) => {
    t = Date.parse(time);
    if (times.any === undefined || t >= times.any) {
      times.any = t;
      patch.recorded_at = time;
    }
  };
  const offer = <G extends Group>(group: G, time: string, value: NonNullable<LatestPatch[G]>['value']) => {
    if (times[group] === undefined || t >= times[group]) {
      times[group] = t;
      (patch[group] as Timed<unknown>) = { at: time, value };
    }
  };

  for (const r of records) {
    seen(r.time);
    switch (r.type) {
      case 'gps':
        offer('position', r.time, { lat: r.lat, lng: r.lng, speed: r.speed ?? null, heading: r.heading ?? null });
        break;
      case 'engine':
        if (r.running) offer('engine_running', r.time, r.running);
        if (r.engine_line) offer('engine_line', r.time, r.engine_line);
        break;
      case 'connection':
        offer('connection', r.time, r.state);
        break;
      case 'error':
        offer('device_state', r.time, r.status_code);
        break;
      case 'battery':
        offer('battery', r.time, { voltage: r.voltage ?? null, percentage: r.percentage ?? null });
        break;
      default:
        break;
    }
  }
  for (const c of lineChanges) {
    seen(c.time);
    offer('engine_line', c.time, c.engine_line);
  }
  return patch;
}
