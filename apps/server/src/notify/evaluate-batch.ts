import { notifyItemKeys, notifyItems, type DeviceRecord } from '@fleet/contract';
import type { Db } from '../db/database.js';
import { systemClock, type Clock } from '../mail/clock.js';
import { deliver } from './deliver.js';
import { foldMotion } from './motion.js';
import { lockMotion, saveMotion } from './motion.repository.js';
import { findCarsByDataId, latestPosition, loadVehicleAreas } from './notification.repository.js';
import { findSubscribers } from './settings.repository.js';
import { findBatchEvents } from './telemetry-rules.js';

export interface NotifyOptions {
  /** Base of the links in the mail (config.publicUrl). */
  publicUrl: string;
  clock?: Clock;
}

export const TELEMETRY_ITEMS = notifyItemKeys.filter((k) => notifyItems[k].trigger === 'telemetry');

/**
 * Judges one stored batch of a terminal (IMEI) for every account that wants
 * to hear about its vehicle, and queues the mails; also keeps the motion state
 * the minute sweep reads. Pass the gateway's transaction to make telemetry and
 * mail one unit (a retried batch is then never judged twice), or the database
 * to run in a transaction of its own after the batch committed.
 * Returns the number of mails queued.
 */
export async function evaluateBatch(db: Db, carDataId: string, records: readonly DeviceRecord[], opts: NotifyOptions): Promise<number> {
  if (!records.length) return 0;
  const now = (opts.clock ?? systemClock)();
  const run = (trx: Db) => evaluateIn(trx, carDataId, records, { now, publicUrl: opts.publicUrl });
  return db.isTransaction ? run(db) : db.transaction().execute(run);
}

async function evaluateIn(trx: Db, carDataId: string, records: readonly DeviceRecord[], opts: { now: Date; publicUrl: string }) {
  const motion = foldMotion(await lockMotion(trx, carDataId), records);
  if (motion) await saveMotion(trx, carDataId, motion);

  let queued = 0;
  for (const car of await findCarsByDataId(trx, carDataId)) {
    const subs = await findSubscribers(trx, TELEMETRY_ITEMS, car.company_id);
    if (!subs.length) continue;
    const areas = subs.some((s) => s.items.warn_area.enable) ? await loadVehicleAreas(trx, car) : null;
    const found = findBatchEvents(records, { areas, lastPosition: await latestPosition(trx, carDataId) });
    for (const sub of subs) {
      for (const item of TELEMETRY_ITEMS) {
        const setting = sub.items[item];
        if (!setting.enable) continue;
        const finding = item === 'vibration' ? (setting.param === null ? undefined : found.vibration(setting.param)) : found.fixed[item];
        if (finding && (await deliver(trx, sub, car, finding, opts))) queued++;
      }
    }
  }
  return queued;
}
