import { notifyItemKeys, notifyItems } from '@fleet/contract';
import type { Db } from '../db/database.js';
import { systemClock } from '../outbox/index.js';
import { COOLDOWN_MS, deliver } from './deliver.js';
import type { NotifyOptions } from './evaluate-batch.js';
import { lastNotifications, listSweepVehicles, notificationKey } from './notification.repository.js';
import { subscribersOfCars } from './settings.repository.js';
import { findSweepEvents } from './sweep-rules.js';

export const SWEEP_ITEMS = notifyItemKeys.filter((k) => notifyItems[k].trigger === 'sweep');

/**
 * The minute sweep: device lost, car neglected, stop time over, for every
 * vehicle and every account that may see it. Safe to run on several
 * instances at once (deliver decides under a lock). Returns mails queued.
 */
export async function runSweep(db: Db, opts: NotifyOptions): Promise<number> {
  const now = (opts.clock ?? systemClock)();
  const vehicles = await listSweepVehicles(db);
  const subsByCar = await subscribersOfCars(
    db,
    SWEEP_ITEMS,
    vehicles.map((v) => v.car),
  );
  if (!subsByCar.size) return 0;
  const last = await lastNotifications(db, SWEEP_ITEMS);
  const cooldownStart = now.getTime() - COOLDOWN_MS;

  let queued = 0;
  for (const v of vehicles) {
    for (const sub of subsByCar.get(v.car.car_id) ?? []) {
      for (const f of findSweepEvents(v, sub.items, now)) {
        // Quick pre-check without a transaction; deliver checks again under the lock.
        const prev = last.get(notificationKey(sub.account_id, v.car.car_id, f.item));
        if (prev && prev.getTime() > Math.min(f.since?.getTime() ?? Infinity, cooldownStart)) continue;
        const sent = await db
          .transaction()
          .execute((trx) => deliver(trx, sub, v.car, f, { now, publicUrl: opts.publicUrl }));
        if (sent) queued++;
      }
    }
  }
  return queued;
}
