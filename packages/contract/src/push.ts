import { z } from 'zod';
import { timestamp } from './wire.js';
import { OkResponse } from './auth.js';
import { defineCall } from './call.js';
import { companyFilter, CountResponse, listFilter, listResponse, paging } from './list.js';
import { validationMessages as m } from './messages.js';
import { groupNotifyItemKeys } from './group-notify.js';

/**
 * Browser push (docs/notifications.md "Browser push"): an account subscribes a browser
 * (Web Push with VAPID), and the notification history lists what was sent where: mail, push and, for
 * administrators, the notification webhooks.
 */
export const pushMessages = {
  endpoint: 'プッシュ通知の送信先が不正です（https:// で始まるURL）',
  service: 'このブラウザのプッシュ通知サービスには送信できません（管理者にお問い合わせください）',
  keys: '購読の鍵が不正です',
  notFound: 'このブラウザの購読が見つかりません',
  unsupported: 'このブラウザはプッシュ通知に対応していません',
  denied: '通知がブロックされています。ブラウザのサイト設定で通知を許可してください',
  subscribed: 'このブラウザで通知を受け取ります',
  notSubscribed: 'このブラウザでは通知を受け取っていません',
  subscribeFailed: 'プッシュ通知を登録できませんでした（このブラウザではプッシュサービスを利用できません）',
  unsubscribeFailed: 'プッシュ通知を解除できませんでした',
} as const;

/** Base64url (RFC 4648 §5, padding allowed) of exactly `bytes` bytes. */
const base64url = (bytes: number) =>
  z
    .string({ error: pushMessages.keys })
    .trim()
    .max(200, { error: pushMessages.keys })
    .regex(/^[A-Za-z0-9_-]+={0,2}$/, { error: pushMessages.keys })
    .refine((v) => Math.floor((v.replace(/=+$/, '').length * 3) / 4) === bytes, { error: pushMessages.keys });

const endpoint = z
  .string({ error: m.required })
  .trim()
  .min(1, { error: m.required })
  .max(2000, { error: m.tooLong })
  .refine((v) => /^https:\/\/[^\s/?#]+/i.test(v) && URL.canParse(v), { error: pushMessages.endpoint });

export const PushPublicKeyResponse = z.object({ public_key: z.string() });
export const pushPublicKey = defineCall('/api/push_public_key', z.object({}), PushPublicKeyResponse);

/** What PushSubscription.toJSON() gives, plus the browser's user agent for the history. */
export const PushSubscribeRequest = z.object({
  endpoint,
  keys: z.object(
    {
      /** The browser's ECDH P-256 public key (65 bytes, uncompressed). */
      p256dh: base64url(65),
      /** The 16-byte auth secret. */
      auth: base64url(16),
    },
    { error: pushMessages.keys },
  ),
  user_agent: z.string({ error: m.invalid }).trim().max(500, { error: m.tooLong }).default(''),
});
export const pushSubscribe = defineCall('/api/push_subscribe', PushSubscribeRequest, OkResponse);

export const PushUnsubscribeRequest = z.object({ endpoint });
export const pushUnsubscribe = defineCall('/api/push_unsubscribe', PushUnsubscribeRequest, OkResponse);

/** The payload of every push message; the service worker shows it and opens `url` on a click. */
export const PushPayload = z.object({ title: z.string(), body: z.string(), url: z.string(), tag: z.string() });
export type PushPayload = z.infer<typeof PushPayload>;

export const notifyHistoryChannels = ['mail', 'push', 'webhook'] as const;
export type NotifyHistoryChannel = (typeof notifyHistoryChannels)[number];
export const notifyHistoryChannelLabels: Record<NotifyHistoryChannel, string> = {
  mail: 'メール',
  push: 'プッシュ',
  webhook: 'Webhook',
};
export const notifyHistoryStatuses = ['pending', 'sent', 'failed'] as const;
export type NotifyHistoryStatus = (typeof notifyHistoryStatuses)[number];
export const notifyHistoryStatusLabels: Record<NotifyHistoryStatus, string> = {
  pending: '送信待ち',
  sent: '送信済み',
  failed: '失敗',
};

export const notifyHistoryLabels = {
  channel: '通知方法',
  item: '通知項目',
  car_id: '車両ID',
  car_number: '車両番号',
  recipient: '送信先',
  queued_at: '登録日時',
  status: '状態',
  last_error: '最後のエラー',
} as const;
export const notifyHistorySearchColumns = [
  { key: 'car_number', label: notifyHistoryLabels.car_number },
  { key: 'car_id', label: notifyHistoryLabels.car_id },
  { key: 'recipient', label: notifyHistoryLabels.recipient },
] as const;
export const notifyHistorySortColumns = ['queued_at', 'channel', 'item', 'car_id', 'car_number', 'recipient'] as const;

export const NotifyHistoryRow = z.object({
  /** `<channel>:<id>`: unique across the channels. */
  key: z.string(),
  channel: z.enum(notifyHistoryChannels),
  /** An item, or a zone crossing a group's settings sent (zone_enter, zone_exit). */
  item: z.enum(groupNotifyItemKeys),
  car_id: z.string(),
  car_number: z.string(),
  company_id: z.string().nullable(),
  /** A mail address, the account (and browser) of a push, or a webhook's URL. */
  recipient: z.string(),
  status: z.enum(notifyHistoryStatuses),
  attempts: z.number().int(),
  last_error: z.string().nullable(),
  queued_at: timestamp(),
  sent_at: timestamp().nullable(),
});
export type NotifyHistoryRow = z.infer<typeof NotifyHistoryRow>;

export const NotifyHistoryCountRequest = z.object({ ...listFilter, ...companyFilter });
export const NotifyHistoryListRequest = z.object({ ...listFilter, ...companyFilter, ...paging });
export const notifyHistoryListCount = defineCall(
  '/api/notify_history_list_count',
  NotifyHistoryCountRequest,
  CountResponse,
);
export const notifyHistoryList = defineCall(
  '/api/notify_history_list',
  NotifyHistoryListRequest,
  listResponse(NotifyHistoryRow),
);
