/**
 * The records a simulated terminal sends: GPS once a second with a battery
 * reading every tenth record. The gateway bench and its raw-INSERT anchor
 * build exactly the same records from the same arguments.
 */
export interface IngestPlan {
  terminals: number;
  batchesPerTerminal: number;
  recordsPerBatch: number;
  /** Epoch ms of the first record. */
  start: number;
}

export type BenchRecord =
  | {
      type: 'gps';
      time: string;
      lat: number;
      lng: number;
      speed: number;
      heading: number;
      satellites: number;
      accuracy: number;
    }
  | { type: 'battery'; time: string; voltage: number; percentage: number };

export function batchRecords(plan: IngestPlan, terminal: number, batch: number): BenchRecord[] {
  const out: BenchRecord[] = [];
  for (let k = 0; k < plan.recordsPerBatch; k++) {
    const s = batch * plan.recordsPerBatch + k;
    const time = new Date(plan.start + s * 1000).toISOString();
    if (k % 10 === 9) out.push({ type: 'battery', time, voltage: 12.4, percentage: 80 - s / 1000 });
    else out.push({ type: 'gps', time, ...trackAt(terminal, s), speed: 40, heading: 45, satellites: 10, accuracy: 5 });
  }
  return out;
}

/** Where a terminal is at its `s`-th second: north-east at about 22 km/h, each terminal on a track of its own. */
export function trackAt(terminal: number, s: number): { lat: number; lng: number } {
  return {
    lat: 35.6 + (terminal % 100) * 0.002 + s * 0.00005,
    lng: 139.6 + Math.floor(terminal / 100) * 0.002 + s * 0.00003,
  };
}
