import {
  isSuperAdmin,
  type NotifyItemChannels,
  type NotifyItemKey,
  type NotifyItemSetting,
  type NotifyKey,
  type ZoneNotifyKey,
} from '@fleet/contract';

/**
 * An account to tell, by one of the settings that ask for it: its own (every vehicle it may see) or a
 * vehicle group's (that group's vehicles; docs/notifications.md "Group settings"). Where mail goes, and
 * which items with which params and channels.
 */
export interface Subscriber {
  account_id: string;
  name: string;
  to: string;
  role: number;
  company_id: string | null;
  items: Record<NotifyItemKey, NotifyItemSetting>;
  /**
   * A group's switches for the zone crossings; null for an account's own settings, whose crossings go
   * out on エリア警告's switch and channels.
   */
  zones: Record<ZoneNotifyKey, boolean> | null;
  channels: Partial<Record<NotifyKey, NotifyItemChannels>> & Record<NotifyItemKey, NotifyItemChannels>;
  /** A group-limited account's vehicles (docs/groups.md): it is told about these only; null: not limited. */
  cars: ReadonlySet<string> | null;
  /** The group whose settings ask for it; null: the account's own settings. */
  via: string | null;
}

/** Whether a subscriber may see a vehicle of `carCompany` (the rule of findSubscribers, groups aside). */
export const seesCompany = (s: Pick<Subscriber, 'role' | 'company_id'>, carCompany: string | null) =>
  isSuperAdmin(s) || (carCompany !== null && s.company_id === carCompany);

/**
 * Whether a subscriber may see a vehicle (the rule of findSubscribers): a super admin every one, anyone
 * else its company's, and a group-limited account only its groups' vehicles.
 */
export const seesCar = (
  s: Pick<Subscriber, 'role' | 'company_id' | 'cars'>,
  car: { car_id: string; company_id: string | null },
) => seesCompany(s, car.company_id) && (isSuperAdmin(s) || s.cars === null || s.cars.has(car.car_id));
