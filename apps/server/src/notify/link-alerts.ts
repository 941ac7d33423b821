import type { NotifyItemKey } from '@fleet/contract';
import type { Db } from '../db/database.js';
import { deliver } from './deliver.js';
import { findCarsByDataIds, latestPositions } from './notification.repository.js';
import { subscribersOfCars } from './settings.repository.js';

export interface LinkAlert {
  item: Extract<NotifyItemKey, 'terminal_duplicate' | 'terminal_new_address'>;
  imei: string;
  what: string;
  at: Date;
  detail: Record<string, unknown>;
}

/**
 * An alert of a TCP terminal's login (docs/security.md "Terminal identity"),
 * through the same path as every notification: for each vehicle carrying the
 * terminal, each account that switched the item on and may see the vehicle
 * gets it by its channels (mail, push), with the notification event and the
 * `notify.<item>` webhook event, under the same cooldown (a terminal retrying
 * every few seconds is one alert an hour, not one per attempt).
 * Returns the accounts told.
 */
export async function raiseLinkAlert(db: Db, alert: LinkAlert, opts: { publicUrl: string }): Promise<number> {
  const cars = await findCarsByDataIds(db, [alert.imei]);
  if (cars.length === 0) return 0;
  const subsByCar = await subscribersOfCars(db, [alert.item], cars);
  if (subsByCar.size === 0) return 0;
  const position = (await latestPositions(db, [alert.imei])).get(alert.imei) ?? null;
  let told = 0;
  for (const car of cars) {
    for (const sub of subsByCar.get(car.car_id) ?? []) {
      if (!sub.items[alert.item].enable) continue;
      const sent = await db
        .transaction()
        .execute((trx) =>
          deliver(
            trx,
            sub,
            car,
            { item: alert.item, what: alert.what, at: alert.at, position, detail: alert.detail },
            { now: alert.at, publicUrl: opts.publicUrl },
          ),
        );
      if (sent) told++;
    }
  }
  return told;
}
