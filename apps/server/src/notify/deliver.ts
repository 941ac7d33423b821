import { NOTIFY_COOLDOWN_MINUTES, type NotifyKey, type PushPayload } from '@fleet/contract';
import { recordAlerts } from '../alerts/alerts.repository.js';
import type { Db } from '../db/database.js';
import { formatJst } from '../mail/format.js';
import { enqueueMail } from '../mail/outbox.repository.js';
import { enqueuePush } from '../push/push.repository.js';
import { enqueueWebhookEvent } from '../webhooks/webhook.repository.js';
import { composeNotificationMail } from './notification-mail.js';
import { lockNotificationKey, notifiedSince, recordNotification, type NotifyCar } from './notification.repository.js';
import type { Subscriber } from './settings.repository.js';

export const COOLDOWN_MS = NOTIFY_COOLDOWN_MINUTES * 60_000;

/** One thing one account should hear about one vehicle. */
export interface Finding {
  /** An item, or a zone crossing told by a group's settings (its inbox alert and webhook event are the judgement's). */
  item: NotifyKey;
  /** What happened, one Japanese sentence. */
  what: string;
  /** When it happened. */
  at: Date;
  position: { lat: number; lng: number } | null;
  /**
   * For conditions that last (device lost, neglected, idling): when this one
   * began. Nothing is sent twice for the same episode, however long it lasts.
   */
  since?: Date;
  detail: Record<string, unknown>;
  /** Already an alert of the inbox (a zone crossing): not recorded again as one. */
  inInbox?: boolean;
}

export interface DeliverOptions {
  now: Date;
  publicUrl: string;
}

/**
 * Queues the mail and/or push messages (the account's channels for the item) and records the event in one transaction, unless the
 * account already heard about this vehicle and item within the cooldown (or,
 * for a lasting condition, since it began). Returns whether the account was notified.
 */
export async function deliver(
  trx: Db,
  sub: Subscriber,
  car: NotifyCar,
  f: Finding,
  opts: DeliverOptions,
): Promise<boolean> {
  await lockNotificationKey(trx, sub.account_id, car.car_id, f.item);
  const cooldownStart = opts.now.getTime() - COOLDOWN_MS;
  const since = new Date(f.since ? Math.min(f.since.getTime(), cooldownStart) : cooldownStart);
  if (await notifiedSince(trx, sub.account_id, car.car_id, f.item, since)) return false;

  const mail = composeNotificationMail({
    recipientName: sub.name,
    car,
    item: f.item,
    what: f.what,
    at: f.at,
    position: f.position,
    publicUrl: opts.publicUrl,
    via: sub.via,
  });
  const channels = sub.channels[f.item] ?? { mail: true, push: false };
  const outboxId = channels.mail
    ? await enqueueMail(trx, { to: sub.to, ...mail, kind: 'notification' }, opts.now)
    : null;
  const occurrence = (f.since ?? f.at).toISOString();
  if (channels.push) {
    const carUrl = `${opts.publicUrl}/car/car_detail/${encodeURIComponent(car.car_id)}`;
    const payload: PushPayload = {
      title: mail.subject,
      body: `${f.what}\n${formatJst(f.at)}（日本時間）`,
      url: carUrl,
      tag: `notify:${car.car_id}:${f.item}`,
    };
    await enqueuePush(
      trx,
      {
        account_id: sub.account_id,
        event_id: `notify:${car.car_id}:${f.item}:${f.at.toISOString()}`,
        item: f.item,
        car_id: car.car_id,
        company_id: car.company_id,
        payload: JSON.stringify(payload),
      },
      opts.now,
    );
  }
  await recordNotification(trx, {
    account_id: sub.account_id,
    car_id: car.car_id,
    item: f.item,
    detail: { ...f.detail, what: f.what, happened_at: f.at.toISOString(), position: f.position },
    outbox_id: outboxId,
    at: opts.now,
  });
  // A zone crossing is in the inbox and was sent to the receivers by the judgement (zone.enter / zone.exit).
  if (f.item === 'zone_enter' || f.item === 'zone_exit') return true;
  // One inbox alert per vehicle, item and occurrence, like the webhook event below.
  if (!f.inInbox)
    await recordAlerts(
      trx,
      [
        {
          dedupe_key: `notify:${car.car_id}:${f.item}:${occurrence}`,
          company_id: car.company_id,
          car_id: car.car_id,
          car_data_id: car.car_data_id,
          kind: f.item,
          what: f.what,
          lat: f.position?.lat ?? null,
          lng: f.position?.lng ?? null,
          happened_at: f.since ?? f.at,
        },
      ],
      opts.now,
    );
  // One webhook event per vehicle, item and occurrence, however many accounts were told (the id dedupes).
  await enqueueWebhookEvent(
    trx,
    {
      id: `notify:${car.car_id}:${f.item}:${occurrence}`,
      type: `notify.${f.item}`,
      company_id: car.company_id,
      at: f.at,
      data: {
        item: f.item,
        car_id: car.car_id,
        car_number: car.car_number,
        car_data_id: car.car_data_id,
        what: f.what,
        happened_at: f.at.toISOString(),
        since: f.since?.toISOString() ?? null,
        position: f.position,
        detail: f.detail,
      },
    },
    opts.now,
  );
  return true;
}
