import type { DeviceRecord, RecordOf } from '@fleet/contract';

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

/**
 * The patch of these records and line changes. `times`: each record's time (epoch ms) at its index, when the
 * caller has read them (the gateway has); else each is read here.
 */
export function foldLatest(
  records: readonly DeviceRecord[],
  lineChanges: readonly EngineLineChange[] = [],
  times?: readonly number[],
): LatestPatch {
  const patch: LatestPatch = { recorded_at: null };
  // Per group the newest record so far and its time; the values are made once, for the winners.
  // Later entries win ties: within a batch the order is the terminal's order. Each time is read once.
  let newest = -Infinity;
  const at: Partial<Record<Group, number>> = {};
  const won: Partial<Record<Group, DeviceRecord | EngineLineChange>> = {};
  const offer = (group: Group, t: number, entry: DeviceRecord | EngineLineChange) => {
    const groupNewest = at[group];
    if (groupNewest === undefined || t >= groupNewest) {
      at[group] = t;
      won[group] = entry;
    }
  };

  for (let i = 0; i < records.length; i++) {
    const r = records[i]!;
    const t = times ? times[i]! : Date.parse(r.time);
    if (t >= newest) {
      newest = t;
      patch.recorded_at = r.time;
    }
    switch (r.type) {
      case 'gps':
        offer('position', t, r);
        break;
      case 'engine':
        if (r.running) offer('engine_running', t, r);
        if (r.engine_line) offer('engine_line', t, r);
        break;
      case 'connection':
        offer('connection', t, r);
        break;
      case 'error':
        offer('device_state', t, r);
        break;
      case 'battery':
        offer('battery', t, r);
        break;
      default:
        break;
    }
  }
  for (const c of lineChanges) {
    const t = Date.parse(c.time);
    if (t >= newest) {
      newest = t;
      patch.recorded_at = c.time;
    }
    offer('engine_line', t, c);
  }

  const gps = won.position as RecordOf<'gps'> | undefined;
  if (gps)
    patch.position = {
      at: gps.time,
      value: { lat: gps.lat, lng: gps.lng, speed: gps.speed ?? null, heading: gps.heading ?? null },
    };
  const running = won.engine_running as RecordOf<'engine'> | undefined;
  if (running) patch.engine_running = { at: running.time, value: running.running! };
  const line = won.engine_line as RecordOf<'engine'> | EngineLineChange | undefined;
  if (line) patch.engine_line = { at: line.time, value: line.engine_line! };
  const connection = won.connection as RecordOf<'connection'> | undefined;
  if (connection) patch.connection = { at: connection.time, value: connection.state };
  const error = won.device_state as RecordOf<'error'> | undefined;
  if (error) patch.device_state = { at: error.time, value: error.status_code };
  const battery = won.battery as RecordOf<'battery'> | undefined;
  if (battery)
    patch.battery = {
      at: battery.time,
      value: { voltage: battery.voltage ?? null, percentage: battery.percentage ?? null },
    };
  return patch;
}
