import { z } from 'zod';
import { OkResponse } from './auth.js';
import { defineCall } from './call.js';
import { idField } from './fields.js';
import { validationMessages as m } from './messages.js';
import {
  noChannelMessage,
  notifyItemChannelsField,
  notifyItemField,
  NotifyItemChannels,
  notifyItemKeys,
  notifyItems,
  NotifyItemSetting,
  type NotifyItemKey,
  type NotifyItemMeta,
} from './notify.js';

/**
 * Notification settings of a vehicle group (拠点・部署, docs/notifications.md "Group settings"): which
 * items a branch hears about for the vehicles of the group, and which of the company's accounts are told.
 * They add to the accounts' own settings; they never take anything away.
 */
export const zoneNotifyKeys = ['zone_enter', 'zone_exit'] as const;
export type ZoneNotifyKey = (typeof zoneNotifyKeys)[number];
export const groupNotifyItemKeys = [...notifyItemKeys, ...zoneNotifyKeys] as const;
export type GroupNotifyItemKey = (typeof groupNotifyItemKeys)[number];
/** What a notification can be about: an item, or a zone crossing (a group's own switches). */
export type NotifyKey = NotifyItemKey | ZoneNotifyKey;

export type ZoneNotifyMeta = Omit<NotifyItemMeta, 'key'> & { key: ZoneNotifyKey };
export const zoneNotifyItems: Record<ZoneNotifyKey, ZoneNotifyMeta> = {
  zone_enter: {
    key: 'zone_enter',
    label: 'ゾーン進入',
    description: '車両が割り当てられたゾーンに入ったとき',
    trigger: 'telemetry',
    param: null,
  },
  zone_exit: {
    key: 'zone_exit',
    label: 'ゾーン退出',
    description: '車両が割り当てられたゾーンから出たとき',
    trigger: 'telemetry',
    param: null,
  },
};
/** The label of an item or a zone crossing (mail subjects, the settings screen). */
export const notifyKeyLabel = (k: NotifyKey): string =>
  k === 'zone_enter' || k === 'zone_exit' ? zoneNotifyItems[k].label : notifyItems[k].label;
/** The group settings' items in the order of the screen: the items, then the zone crossings. */
export const groupNotifyItemList: (Omit<NotifyItemMeta, 'key'> & { key: GroupNotifyItemKey })[] =
  groupNotifyItemKeys.map((k) => (k === 'zone_enter' || k === 'zone_exit' ? zoneNotifyItems[k] : notifyItems[k]));

/** At most this many accounts told by one group. */
export const GROUP_RECIPIENTS_MAX = 200;

export const groupNotifyMessages = {
  recipientNotAllowed: 'この拠点・部署の車両を見られないアカウントは通知先にできません',
  tooManyRecipients: `通知先は${GROUP_RECIPIENTS_MAX}件までです`,
  noRecipient: '通知する項目があるときは通知先を1つ以上選択してください',
  updated: '拠点・部署の通知設定を更新しました。',
  fetchFailed: '拠点・部署の通知設定を取得できませんでした。管理者に問い合わせてください。',
  updateFailed: '拠点・部署の通知設定の更新に失敗しました。管理者に問い合わせてください。',
} as const;

const itemsShape = Object.fromEntries(
  groupNotifyItemKeys.map((k) => [
    k,
    notifyItemField(k === 'zone_enter' || k === 'zone_exit' ? zoneNotifyItems[k] : notifyItems[k]).prefault({
      enable: false,
      param: null,
    }),
  ]),
) as { [K in GroupNotifyItemKey]: z.ZodPrefault<ReturnType<typeof notifyItemField>> };

/** The group settings form; error keys are `info.<item>.param`, `info.channels.<item>.mail`, `info.account_ids`. */
export const GroupNotifyForm = z
  .object({
    ...itemsShape,
    channels: z
      .object(
        Object.fromEntries(groupNotifyItemKeys.map((k) => [k, notifyItemChannelsField])) as Record<
          GroupNotifyItemKey,
          typeof notifyItemChannelsField
        >,
        { error: m.invalid },
      )
      .prefault({}),
    /** The company's accounts told about the group's vehicles. */
    account_ids: z
      .array(idField(), { error: m.invalid })
      .max(GROUP_RECIPIENTS_MAX, groupNotifyMessages.tooManyRecipients)
      .default([])
      .transform((ids) => [...new Set(ids)]),
  })
  .superRefine((v, ctx) => {
    let any = false;
    for (const k of groupNotifyItemKeys) {
      const c = v.channels[k];
      if (!v[k].enable) continue;
      any = true;
      if (!c.mail && !c.push)
        ctx.addIssue({ code: 'custom', path: ['channels', k, 'mail'], message: noChannelMessage });
    }
    if (any && v.account_ids.length === 0)
      ctx.addIssue({ code: 'custom', path: ['account_ids'], message: groupNotifyMessages.noRecipient });
  });
export type GroupNotifyFormInput = z.input<typeof GroupNotifyForm>;

export const GroupNotifySettings = z.object({
  ...(Object.fromEntries(groupNotifyItemKeys.map((k) => [k, NotifyItemSetting])) as Record<
    GroupNotifyItemKey,
    typeof NotifyItemSetting
  >),
  channels: z.object(
    Object.fromEntries(groupNotifyItemKeys.map((k) => [k, NotifyItemChannels])) as Record<
      GroupNotifyItemKey,
      typeof NotifyItemChannels
    >,
  ),
  account_ids: z.array(z.string()),
});
export type GroupNotifySettings = z.infer<typeof GroupNotifySettings>;

/** An account that may be told about the group's vehicles: of its company, and not limited to other groups. */
export const GroupNotifyCandidate = z.object({
  account_id: z.string(),
  name: z.string(),
  email: z.string(),
});
export type GroupNotifyCandidate = z.infer<typeof GroupNotifyCandidate>;

export const groupNotify = defineCall(
  '/api/group_notify',
  z.object({ group_id: idField() }),
  z.object({
    group_id: z.string(),
    name: z.string(),
    notify: GroupNotifySettings,
    candidates: z.array(GroupNotifyCandidate),
  }),
);
export const groupNotifyUpdate = defineCall(
  '/api/group_notify_update',
  z.object({ group_id: idField(), info: GroupNotifyForm }),
  OkResponse,
);
