import {
  groupNotifyItemKeys,
  notifyItemKeys,
  zoneNotifyKeys,
  type GroupNotifySettings,
  type NotifyKey,
} from '@fleet/contract';
import { sql } from 'kysely';
import type { Db } from '../db/database.js';
import { groupSettings, readSettings, toChannels, toItems, writeSettings } from './stored-settings.js';
import type { Subscriber } from './subscriber.js';

/** A group's settings; a group that never saved any: everything off, nobody told. */
export async function getGroupNotify(db: Db, groupId: string): Promise<GroupNotifySettings> {
  const { items, channels } = await readSettings(db, groupSettings, groupId);
  const recipients = await db
    .selectFrom('group_notify_recipients')
    .select('account_id')
    .where('group_id', '=', groupId)
    .orderBy('account_id')
    .execute();
  return { ...items, channels, account_ids: recipients.map((r) => r.account_id) };
}

/** Replaces a group's settings and recipients (in the caller's transaction). */
export async function saveGroupNotify(db: Db, groupId: string, s: GroupNotifySettings, now: Date): Promise<void> {
  await writeSettings(db, groupSettings, groupId, s, { updated_at: now });
  await db.deleteFrom('group_notify_recipients').where('group_id', '=', groupId).execute();
  if (s.account_ids.length)
    await db
      .insertInto('group_notify_recipients')
      .values(s.account_ids.map((account_id) => ({ group_id: groupId, account_id })))
      .execute();
}

/**
 * The accounts a group's settings may tell: live accounts of the group's company that see the group's
 * vehicles (not limited to groups, or limited to groups that include this one). In name order.
 */
export async function groupCandidates(db: Db, groupId: string, companyId: string) {
  return db
    .selectFrom('accounts as a')
    .select(['a.account_id', 'a.name', 'a.email'])
    .where('a.company_id', '=', companyId)
    .where('a.is_delete', '=', false)
    .where(
      sql<boolean>`(NOT EXISTS (SELECT 1 FROM account_group_limits l WHERE l.account_id = a.account_id)
        OR EXISTS (SELECT 1 FROM account_groups ag WHERE ag.account_id = a.account_id AND ag.group_id = ${groupId}))`,
    )
    .orderBy('a.name')
    .orderBy('a.account_id')
    .execute();
}

/**
 * For each of the vehicles, the recipients its groups' settings tell, with the group's items, params and
 * channels, among `items` (at least one switched on): one Subscriber per group and account. Whether the
 * account may still see the vehicle is the caller's check (seesCar), as for the accounts' own settings.
 */
export async function findGroupSubscribers(
  db: Db,
  items: readonly NotifyKey[],
  carIds: readonly string[],
): Promise<Map<string, Subscriber[]>> {
  const out = new Map<string, Subscriber[]>();
  if (carIds.length === 0 || items.length === 0) return out;
  const rows = await db
    .selectFrom('car_groups as cg')
    .innerJoin('group_notify_settings as gs', 'gs.group_id', 'cg.group_id')
    .innerJoin('vehicle_groups as g', 'g.group_id', 'cg.group_id')
    .innerJoin('group_notify_recipients as r', 'r.group_id', 'cg.group_id')
    .innerJoin('accounts as a', 'a.account_id', 'r.account_id')
    .leftJoin('notification_settings as ns', 'ns.account_id', 'a.account_id')
    .select([
      'cg.car_id',
      'g.name as group_name',
      'gs.items',
      'gs.channels',
      'a.account_id',
      'a.name',
      'a.email as account_email',
      'a.role',
      'a.company_id',
      'ns.email',
      sql<string[] | null>`CASE WHEN EXISTS (SELECT 1 FROM account_group_limits l WHERE l.account_id = a.account_id)
        THEN array(SELECT DISTINCT c2.car_id FROM account_groups ag JOIN car_groups c2 ON c2.group_id = ag.group_id
          WHERE ag.account_id = a.account_id) END`.as('group_cars'),
    ])
    .where('cg.car_id', 'in', [...carIds])
    .where('a.is_delete', '=', false)
    .where((eb) => eb.or(items.map((k) => eb(sql<string>`gs.items -> ${k} ->> 'enable'`, '=', 'true'))))
    .orderBy('cg.car_id')
    .orderBy('g.name')
    .orderBy('a.account_id')
    .execute();
  for (const r of rows) {
    const all = toItems(groupNotifyItemKeys, r.items);
    const channels = toChannels(groupNotifyItemKeys, r.channels);
    const sub: Subscriber = {
      account_id: r.account_id,
      name: r.name,
      to: (r.email ?? '').trim() || r.account_email,
      role: r.role,
      company_id: r.company_id,
      items: Object.fromEntries(notifyItemKeys.map((k) => [k, all[k]])) as Subscriber['items'],
      zones: Object.fromEntries(zoneNotifyKeys.map((k) => [k, all[k].enable])) as NonNullable<Subscriber['zones']>,
      channels,
      cars: r.group_cars === null ? null : new Set(r.group_cars),
      via: r.group_name,
    };
    out.set(r.car_id, [...(out.get(r.car_id) ?? []), sub]);
  }
  return out;
}

/** SQL: whether a group of the vehicle `carColumn` tells anyone about one of `items`. */
export function groupSubscriberExists(items: readonly NotifyKey[], carColumn: string) {
  const enabled = sql.join(
    items.map((k) => sql`gs.items -> ${k} ->> 'enable' = 'true'`),
    sql` OR `,
  );
  return sql<boolean>`EXISTS (SELECT 1 FROM car_groups AS cg JOIN group_notify_settings AS gs ON gs.group_id = cg.group_id
    WHERE cg.car_id = ${sql.ref(carColumn)} AND (${enabled})
      AND EXISTS (SELECT 1 FROM group_notify_recipients AS r WHERE r.group_id = cg.group_id))`;
}
