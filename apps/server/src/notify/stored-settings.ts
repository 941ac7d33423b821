import {
  defaultItemChannels,
  groupNotifyItemKeys,
  notifyItemKeys,
  notifyItems,
  zoneNotifyItems,
  type NotifyItemChannels,
  type NotifyItemSetting,
  type NotifyKey,
} from '@fleet/contract';
import type { ColumnType, Generated, Insertable, Kysely, RawBuilder } from 'kysely';
import type { Db } from '../db/database.js';

/**
 * The item and channel columns of notification settings, stored alike for an account's own settings
 * (notification_settings) and a vehicle group's (group_notify_settings): read into the shape the API
 * shows, and written back. The owner says which table, which key column and which items.
 */
export interface SettingsOwner<K extends NotifyKey, More extends string> {
  table: 'notification_settings' | 'group_notify_settings';
  key: 'account_id' | 'group_id';
  items: readonly K[];
  /** The owner's further text columns in the same row. */
  more: readonly More[];
}

export const accountSettings = {
  table: 'notification_settings',
  key: 'account_id',
  items: notifyItemKeys,
  more: ['email', 'message_id'],
} as const satisfies SettingsOwner<NotifyKey, string>;

export const groupSettings = {
  table: 'group_notify_settings',
  key: 'group_id',
  items: groupNotifyItemKeys,
  more: [],
} as const satisfies SettingsOwner<NotifyKey, string>;

type StoredItems = Partial<Record<string, Partial<NotifyItemSetting>>>;
type StoredChannels = Partial<Record<string, { mail?: boolean; push?: boolean }>>;

const paramOf = (k: NotifyKey) => (k === 'zone_enter' || k === 'zone_exit' ? zoneNotifyItems[k] : notifyItems[k]).param;

/** Stored items as the API shows them: every item present, params at their defaults when unused, null without one. */
export function toItems<K extends NotifyKey>(keys: readonly K[], stored: StoredItems | null | undefined) {
  const out = {} as Record<K, NotifyItemSetting>;
  for (const k of keys) {
    const s = stored?.[k];
    const meta = paramOf(k);
    out[k] = {
      enable: s?.enable === true,
      param: meta ? (typeof s?.param === 'number' ? s.param : meta.default) : null,
    };
  }
  return out;
}

/** Stored channels as the API shows them: an item saved before channels existed goes by mail only. */
export function toChannels<K extends NotifyKey>(keys: readonly K[], stored: StoredChannels | null | undefined) {
  const out = {} as Record<K, NotifyItemChannels>;
  for (const k of keys) {
    const c = stored?.[k];
    const d = defaultItemChannels();
    out[k] = {
      mail: typeof c?.mail === 'boolean' ? c.mail : d.mail,
      push: typeof c?.push === 'boolean' ? c.push : d.push,
    };
  }
  return out;
}

/** Both tables as one shape, so one statement serves either owner (each has only its owner's columns). */
interface SettingsRow {
  account_id: Generated<string>;
  group_id: Generated<string>;
  email: Generated<string>;
  message_id: Generated<string>;
  items: ColumnType<StoredItems, string, string>;
  channels: ColumnType<StoredChannels, string, string>;
  updated_at: Date;
}
const asSettingsDb = (db: Db) =>
  db as unknown as Kysely<Record<SettingsOwner<NotifyKey, string>['table'], SettingsRow>>;

/**
 * An owner's stored settings: `row` (its further columns) undefined when it never saved any, the items
 * and channels then as for an empty row.
 */
export async function readSettings<K extends NotifyKey, More extends string>(
  db: Db,
  owner: SettingsOwner<K, More>,
  id: string,
) {
  const row = await asSettingsDb(db)
    .selectFrom(owner.table)
    .select([...owner.more, 'items', 'channels'] as (keyof SettingsRow)[])
    .where(owner.key, '=', id)
    .executeTakeFirst();
  return {
    row: row as Record<More, string> | undefined,
    items: toItems(owner.items, row?.items),
    channels: toChannels(owner.items, row?.channels),
  };
}

/** Inserts or replaces an owner's settings: its items and channels, with `more` columns and `updated_at`. */
export async function writeSettings<K extends NotifyKey, More extends string>(
  db: Db,
  owner: SettingsOwner<K, More>,
  id: string,
  s: Record<K, NotifyItemSetting> & { channels: Record<K, NotifyItemChannels> },
  more: Record<More, string> & { updated_at: Date | RawBuilder<Date> },
): Promise<void> {
  const { updated_at, ...others } = more;
  const items = JSON.stringify(Object.fromEntries(owner.items.map((k) => [k, s[k]])));
  const channels = JSON.stringify(Object.fromEntries(owner.items.map((k) => [k, s.channels[k]])));
  const values = { ...others, items, channels, updated_at } as Insertable<SettingsRow>;
  await asSettingsDb(db)
    .insertInto(owner.table)
    .values({ [owner.key]: id, ...values })
    .onConflict((oc) => oc.column(owner.key).doUpdateSet(values))
    .execute();
}
