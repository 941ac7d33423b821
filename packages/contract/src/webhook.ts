import { z } from 'zod';
import { timestamp } from './wire.js';
import { OkResponse } from './auth.js';
import { defineCall } from './call.js';
import { CountResponse, MAX_PAGE_SIZE, PAGE_SIZE } from './list.js';
import { validationMessages as m } from './messages.js';
import { notifyItemKeys, notifyItems } from './notify.js';

/**
 * Webhooks (docs/notifications.md "Webhooks"): a company admin's receivers for the company's events, the super admin's for
 * every company. Event types, bodies and the signature: docs/notifications.md "Webhooks".
 */
export const webhookEventTypes = [
  'command',
  ...notifyItemKeys.map((k) => `notify.${k}` as const),
  'terminal.offline',
  'terminal.online',
  'zone.enter',
  'zone.exit',
] as const;
export type WebhookEventType = (typeof webhookEventTypes)[number];

export const webhookEventLabels: Record<WebhookEventType, string> = {
  command: 'コマンドの状態変化（結果を含む）',
  ...(Object.fromEntries(notifyItemKeys.map((k) => [`notify.${k}`, `通知：${notifyItems[k].label}`])) as Record<
    `notify.${(typeof notifyItemKeys)[number]}`,
    string
  >),
  'terminal.offline': '端末オフライン（接続断）',
  'terminal.online': '端末オンライン（接続）',
  'zone.enter': 'ゾーン進入',
  'zone.exit': 'ゾーン退出',
};

export const webhookMessages = {
  url: 'URLの形式が不正です（http:// または https:// で始まるURLを入力してください）',
  events: '通知するイベントを1つ以上選択してください',
  secret: '署名シークレットは16〜200文字で入力してください',
  notFound: 'Webhookが見つかりません',
  companyAdminsOnly: 'Webhookを設定できるのは管理者のみです',
  /** The URL names this machine or an internal network (docs/security.md "Outbound calls"). */
  privateTarget:
    '内部ネットワークのアドレス（localhost、127.0.0.1、10.x.x.x、192.168.x.x、169.254.x.x など）には送信できません',
} as const;

/**
 * What a failed call's log row says (webhook_deliveries.last_error, push_deliveries.last_error): a category,
 * never the socket's own message, which names the address and port it tried and would make the log a
 * port scanner of the server's network. A non-2xx answer is `HTTP <status>`.
 */
export const deliveryErrorMessages = {
  connect: '接続できません',
  timeout: 'タイムアウト',
  dns: '名前解決できません',
  blocked: '送信先が許可されていません（内部ネットワークのアドレス）',
  tls: 'TLS接続に失敗しました（証明書を確認してください）',
  other: '送信に失敗しました',
} as const;
export type DeliveryFailure = keyof typeof deliveryErrorMessages;

/** The headers every delivery carries. */
export const WEBHOOK_SIGNATURE_HEADER = 'X-Fleet-Signature';
export const WEBHOOK_EVENT_HEADER = 'X-Fleet-Event';
export const WEBHOOK_EVENT_ID_HEADER = 'X-Fleet-Event-Id';

const url = z
  .string({ error: m.required })
  .trim()
  .min(1, { error: m.required })
  .max(2000, { error: m.tooLong })
  .refine((v) => /^https?:\/\/[^\s/?#]+/i.test(v) && URL.canParse(v), { error: webhookMessages.url });
const events = z
  .array(z.enum(webhookEventTypes, { error: m.invalid }), { error: webhookMessages.events })
  .min(1, { error: webhookMessages.events })
  .transform((v) => [...new Set(v)]);
/** Blank: the server makes one (add) or keeps the one it has (update). */
const secret = z
  .string({ error: m.invalid })
  .trim()
  .max(200, { error: webhookMessages.secret })
  .refine((v) => v === '' || v.length >= 16, { error: webhookMessages.secret })
  .default('');
const description = z.string({ error: m.invalid }).trim().max(200, { error: m.tooLong }).default('');
/** A receiver's id: a PostgreSQL integer (serial), so at most 2^31 - 1. */
const webhookId = z
  .number({ error: m.number })
  .int({ error: m.number })
  .min(1, { error: m.invalid })
  .max(2_147_483_647, { error: m.invalid });

export const Webhook = z.object({
  id: z.number().int(),
  /** null: the super admin's, for every company. */
  company_id: z.string().nullable(),
  url: z.string(),
  events: z.array(z.enum(webhookEventTypes)),
  enabled: z.boolean(),
  description: z.string(),
  /** The secret's last four characters; the whole secret is shown once, when it is made. */
  secret_hint: z.string(),
  created_at: timestamp(),
  updated_at: timestamp(),
});
export type Webhook = z.infer<typeof Webhook>;

export const WebhookListRequest = z.object({});
export const WebhookListResponse = CountResponse.extend({ list: z.array(Webhook) });
export const webhookList = defineCall('/api/webhook_list', WebhookListRequest, WebhookListResponse);

export const WebhookAddRequest = z.object({
  url,
  secret,
  events,
  enabled: z.boolean({ error: m.invalid }).default(true),
  description,
});
export const WebhookAddResponse = z.object({ webhook: Webhook, secret: z.string() });
export const webhookAdd = defineCall('/api/webhook_add', WebhookAddRequest, WebhookAddResponse);

export const WebhookUpdateRequest = WebhookAddRequest.extend({ id: webhookId });
export const webhookUpdate = defineCall('/api/webhook_update', WebhookUpdateRequest, OkResponse);

export const WebhookDeleteRequest = z.object({ id: webhookId });
export const webhookDelete = defineCall('/api/webhook_delete', WebhookDeleteRequest, OkResponse);

export const webhookDeliveryStatuses = ['all', 'pending', 'sent', 'failed'] as const;
export type WebhookDeliveryStatus = (typeof webhookDeliveryStatuses)[number];
export const webhookDeliveryStatusLabels: Record<Exclude<WebhookDeliveryStatus, 'all'>, string> = {
  pending: '送信待ち',
  sent: '送信済み',
  failed: '送信失敗',
};

export const WebhookDeliveryListRequest = z.object({
  webhook_id: webhookId.optional(),
  status: z.enum(webhookDeliveryStatuses, { error: m.invalid }).default('all'),
  offset: z.number({ error: m.number }).int().min(0).max(10_000_000).default(0),
  limit: z.number({ error: m.number }).int().min(1).max(MAX_PAGE_SIZE).default(PAGE_SIZE),
});
export const WebhookDeliveryRow = z.object({
  id: z.number().int(),
  webhook_id: z.number().int(),
  url: z.string(),
  event_id: z.string(),
  event_type: z.string(),
  status: z.enum(['pending', 'sent', 'failed']),
  attempts: z.number().int(),
  last_status: z.number().int().nullable(),
  last_error: z.string().nullable(),
  next_attempt_at: timestamp(),
  sent_at: timestamp().nullable(),
  created_at: timestamp(),
});
export type WebhookDeliveryRow = z.infer<typeof WebhookDeliveryRow>;
export const WebhookDeliveryListResponse = CountResponse.extend({ list: z.array(WebhookDeliveryRow) });
export const webhookDeliveryList = defineCall(
  '/api/webhook_delivery_list',
  WebhookDeliveryListRequest,
  WebhookDeliveryListResponse,
);

/** The JSON body of every delivery (docs/notifications.md). */
export const WebhookEventBody = z.object({
  id: z.string(),
  type: z.string(),
  /** ISO 8601 (UTC): when it happened. */
  created_at: timestamp(),
  company_id: z.string().nullable(),
  data: z.record(z.string(), z.unknown()),
});
export type WebhookEventBody = z.infer<typeof WebhookEventBody>;
