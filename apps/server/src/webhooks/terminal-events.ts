import type { DeviceRecord } from '@fleet/contract';
import type { Db } from '../db/database.js';
import { anyWebhookWants, enqueueWebhookEvent } from './webhook.repository.js';

interface TerminalCar {
  car_id: string;
  car_number: string;
  company_id: string | null;
  car_data_id: string;
}

/**
 * `terminal.online` / `terminal.offline` webhook events for the `connection` records of stored batches,
 * queued in the ingest's transaction (delivered later by the webhook job, so a receiver that is down
 * never holds up a terminal). One event per terminal, state and record time.
 */
export async function queueTerminalEvents(
  trx: Db,
  batches: readonly { carDataId: string; records: readonly DeviceRecord[]; now: Date }[],
  cars: readonly TerminalCar[],
): Promise<number> {
  const found = batches.flatMap((b) =>
    b.records.flatMap((r) =>
      r.type === 'connection' ? [{ carDataId: b.carDataId, state: r.state, time: r.time, now: b.now }] : [],
    ),
  );
  if (!found.length) return 0;
  if (!(await anyWebhookWants(trx, 'terminal.online')) && !(await anyWebhookWants(trx, 'terminal.offline'))) return 0;
  let queued = 0;
  for (const f of found) {
    const car = cars.find((c) => c.car_data_id === f.carDataId) ?? null;
    const type = f.state === 'connected' ? 'terminal.online' : 'terminal.offline';
    queued += await enqueueWebhookEvent(
      trx,
      {
        id: `terminal:${f.carDataId}:${f.state}:${new Date(f.time).toISOString()}`,
        type,
        company_id: car?.company_id ?? null,
        at: new Date(f.time),
        data: {
          car_data_id: f.carDataId,
          car_id: car?.car_id ?? null,
          car_number: car?.car_number ?? null,
          state: f.state,
          time: f.time,
        },
      },
      f.now,
    );
  }
  return queued;
}
