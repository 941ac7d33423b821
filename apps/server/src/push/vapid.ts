import webPush from 'web-push';
import type { Db } from '../db/database.js';

export interface VapidKeys {
  publicKey: string;
  privateKey: string;
  subject: string;
}

export interface VapidConfig {
  VAPID_PUBLIC_KEY?: string | undefined;
  VAPID_PRIVATE_KEY?: string | undefined;
  VAPID_SUBJECT: string;
}

/**
 * The VAPID key pair: from the configuration when it has one, else the pair stored in push_vapid_keys,
 * made on first use. Concurrent first uses (several instances) insert at most one row and all read it
 * back, so every instance and restart signs with the same pair: browsers' subscriptions are bound to it.
 */
export async function vapidKeys(db: Db, config: VapidConfig): Promise<VapidKeys> {
  const subject = config.VAPID_SUBJECT;
  if (config.VAPID_PUBLIC_KEY && config.VAPID_PRIVATE_KEY)
    return { publicKey: config.VAPID_PUBLIC_KEY, privateKey: config.VAPID_PRIVATE_KEY, subject };
  const stored = await readStored(db);
  if (stored) return { ...stored, subject };
  const made = webPush.generateVAPIDKeys();
  await db
    .insertInto('push_vapid_keys')
    .values({ id: true, public_key: made.publicKey, private_key: made.privateKey })
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
  const row = await readStored(db);
  if (!row) throw new Error('push_vapid_keys: the key pair was not stored');
  return { ...row, subject };
}

async function readStored(db: Db) {
  const row = await db
    .selectFrom('push_vapid_keys')
    .select(['public_key', 'private_key'])
    .where('id', '=', true)
    .executeTakeFirst();
  return row ? { publicKey: row.public_key, privateKey: row.private_key } : undefined;
}
