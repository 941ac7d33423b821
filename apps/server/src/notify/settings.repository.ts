import {
  defaultNotifySettings,
  notifyItemKeys,
  type NotifyItemKey,
  zoneNotifyKeys,
  type NotifySettings,
} from '@fleet/contract';
import { sql, type SqlBool } from 'kysely';
import type { Db } from '../db/database.js';
import { findGroupSubscribers, groupSubscriberExists } from './group-settings.repository.js';
import { accountSettings, readSettings, toChannels, toItems, writeSettings } from './stored-settings.js';
import { seesCar, type Subscriber } from './subscriber.js';

export async function getNotifySettings(db: Db, accountId: string): Promise<NotifySettings> {
  const { row, items, channels } = await readSettings(db, accountSettings, accountId);
  if (!row) return defaultNotifySettings();
  return { email: row.email, messageId: row.message_id, ...items, channels };
}

export async function saveNotifySettings(db: Db, accountId: string, s: NotifySettings): Promise<void> {
  await writeSettings(db, accountSettings, accountId, s, {
    email: s.email,
    message_id: s.messageId,
    updated_at: sql<Date>`now()`,
  });
}

/**
 * Live accounts with at least one of `items` switched on. With `carCompanies`
 * given (vehicles' companies, null for none), only those who may see a vehicle
 * of one of them: a super admin sees every company, anyone else their own only.
 */
export async function findSubscribers(
  db: Db,
  items: readonly NotifyItemKey[],
  carCompanies?: readonly (string | null)[],
): Promise<Subscriber[]> {
  let q = db
    .selectFrom('notification_settings as ns')
    .innerJoin('accounts as a', 'a.account_id', 'ns.account_id')
    .select([
      'a.account_id',
      'a.name',
      'a.email as account_email',
      'a.role',
      'a.company_id',
      'ns.email',
      'ns.items',
      'ns.channels',
      sql<string[] | null>`CASE WHEN EXISTS (SELECT 1 FROM account_group_limits l WHERE l.account_id = a.account_id)
        THEN array(SELECT DISTINCT cg.car_id FROM account_groups ag JOIN car_groups cg ON cg.group_id = ag.group_id
          WHERE ag.account_id = a.account_id) END`.as('group_cars'),
    ])
    .where('a.is_delete', '=', false)
    .where((eb) => eb.or(items.map((k) => eb(sql<string>`ns.items -> ${k} ->> 'enable'`, '=', 'true'))));
  if (carCompanies !== undefined) {
    const companies = [...new Set(carCompanies.filter((c): c is string => c !== null))];
    q = q.where((eb) =>
      eb.or([
        sql<SqlBool>`account_is_super_admin(a.role, a.company_id)`,
        ...(companies.length ? [eb('a.company_id', 'in', companies)] : []),
      ]),
    );
  }
  const rows = await q.orderBy('a.account_id').execute();
  return rows.map((r) => ({
    account_id: r.account_id,
    name: r.name,
    to: r.email.trim() || r.account_email,
    role: r.role,
    company_id: r.company_id,
    items: toItems(notifyItemKeys, r.items),
    channels: toChannels(notifyItemKeys, r.channels),
    zones: null,
    cars: r.group_cars === null ? null : new Set(r.group_cars),
    via: null,
  }));
}

/**
 * SQL: whether findSubscribers(items, [company]) would find anyone for a
 * vehicle whose company is the column `companyColumn` (the same conditions),
 * or a group of the vehicle (`carColumn`, by default the `car_id` beside
 * `companyColumn`) tells anyone about one of them or of the zone crossings,
 * so a statement can tell which vehicles need the judgement at all.
 */
export function subscriberExists(
  items: readonly NotifyItemKey[],
  companyColumn: string,
  carColumn = companyColumn.replace(/company_id$/, 'car_id'),
) {
  const enabled = sql.join(
    items.map((k) => sql`ns.items -> ${k} ->> 'enable' = 'true'`),
    sql` OR `,
  );
  return sql<boolean>`(EXISTS (SELECT 1 FROM notification_settings AS ns INNER JOIN accounts AS a ON a.account_id = ns.account_id
    WHERE a.is_delete = false AND (${enabled})
      AND (account_is_super_admin(a.role, a.company_id) OR a.company_id = ${sql.ref(companyColumn)}))
    OR ${groupSubscriberExists([...items, ...zoneNotifyKeys], carColumn)})`;
}

export { seesCar, seesCompany, type Subscriber } from './subscriber.js';

/**
 * Everyone to tell about each of the vehicles, for `items` (with `zones`, also the groups that switched
 * a zone crossing on): the accounts by their own settings first, then by the settings of each group the
 * vehicle is in, every one only while it may see the vehicle. An account may come more than once (its
 * own settings and a group's, two groups); deliver's cooldown per account, vehicle and item tells it once.
 */
export async function subscribersOfCars(
  db: Db,
  items: readonly NotifyItemKey[],
  cars: readonly { car_id: string; company_id: string | null }[],
  opts: { zones?: boolean } = {},
): Promise<Map<string, Subscriber[]>> {
  const out = new Map<string, Subscriber[]>();
  if (cars.length === 0) return out;
  const own = await findSubscribers(
    db,
    items,
    cars.map((c) => c.company_id),
  );
  const byGroup = await findGroupSubscribers(
    db,
    opts.zones ? [...items, ...zoneNotifyKeys] : items,
    cars.map((c) => c.car_id),
  );
  for (const car of cars) {
    const subs = [...own, ...(byGroup.get(car.car_id) ?? [])].filter((s) => seesCar(s, car));
    if (subs.length) out.set(car.car_id, subs);
  }
  return out;
}
