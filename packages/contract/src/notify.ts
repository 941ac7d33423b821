import { z } from 'zod';
import { timestamp } from './wire.js';
import { OkResponse } from './auth.js';
import { defineCall } from './call.js';
import { flag, idField } from './fields.js';
import { CountResponse, MAX_PAGE_SIZE, PAGE_SIZE } from './list.js';
import { validationMessages as m } from './messages.js';

/**
 * Notification settings (docs/product.md §3) and the calls of docs/product.md §7
 * account_notify / account_notify_update, plus the super admin's view of the
 * mail outbox. What each item means, its param and unit: docs/notifications.md.
 */
export const notifyItemKeys = [
  'sensor_error',
  'device_lost',
  'car_negrected',
  'obd2_error',
  'vibration',
  'stop_time_over',
  'warn_area',
  'connect_error',
  'terminal_duplicate',
  'terminal_new_address',
] as const;
export type NotifyItemKey = (typeof notifyItemKeys)[number];

export interface NotifyParamMeta {
  label: string;
  unit: string;
  min: number;
  max: number;
  /** Input step; 1 with integer true for minutes and days. */
  step: number;
  integer: boolean;
  /** Shown in a new form and used when an item is enabled for the first time. */
  default: number;
  description: string;
}

export interface NotifyItemMeta {
  key: NotifyItemKey;
  label: string;
  /** When the mail goes out, in the words of the settings screen. */
  description: string;
  /**
   * 'telemetry': judged on each batch a terminal sends; 'sweep': judged every minute by the server;
   * 'link': raised by a TCP terminal's login (docs/security.md "Terminal identity").
   */
  trigger: 'telemetry' | 'sweep' | 'link';
  /** null: the item has no parameter (param is always null). */
  param: NotifyParamMeta | null;
}

export const notifyItems: Record<NotifyItemKey, NotifyItemMeta> = {
  sensor_error: {
    key: 'sensor_error',
    label: 'センサーエラー',
    description: '端末がセンサーのエラー（状態コードが正常以外）を報告したとき',
    trigger: 'telemetry',
    param: null,
  },
  device_lost: {
    key: 'device_lost',
    label: '端末通信途絶',
    description: 'GPS端末から指定した時間以上データが届かないとき',
    trigger: 'sweep',
    param: {
      label: '途絶時間',
      unit: '分',
      min: 5,
      max: 10080,
      step: 1,
      integer: true,
      default: 60,
      description: '最後にデータを受信してからの経過時間（5〜10080分、10080分は7日）',
    },
  },
  car_negrected: {
    key: 'car_negrected',
    label: '車両放置',
    description: '車両が指定した日数以上移動していないとき',
    trigger: 'sweep',
    param: {
      label: '放置日数',
      unit: '日',
      min: 1,
      max: 365,
      step: 1,
      integer: true,
      default: 7,
      description: '最後に移動（時速5km以上、または200m以上の位置の変化）してからの日数（1〜365日）',
    },
  },
  obd2_error: {
    key: 'obd2_error',
    label: 'OBD2エラー',
    description: '端末がOBD2のエラー（状態コードが正常以外）を報告したとき',
    trigger: 'telemetry',
    param: null,
  },
  vibration: {
    key: 'vibration',
    label: '振動検知',
    description: 'センサーの振動の値が指定したしきい値を超えたとき',
    trigger: 'telemetry',
    param: {
      label: 'しきい値',
      unit: 'G',
      min: 0.1,
      max: 100,
      step: 0.1,
      integer: false,
      default: 1.5,
      description: '前回の計測からの最大加速度（重力加速度Gの倍数、0.1〜100G）。この値を超えると通知します',
    },
  },
  stop_time_over: {
    key: 'stop_time_over',
    label: '停車時間超過',
    description: 'エンジンがかかったまま指定した時間以上停車しているとき（アイドリング）',
    trigger: 'sweep',
    param: {
      label: '停車時間',
      unit: '分',
      min: 1,
      max: 1440,
      step: 1,
      integer: true,
      default: 30,
      description: 'エンジン始動中に停車（時速5km未満）している時間（1〜1440分）',
    },
  },
  warn_area: {
    key: 'warn_area',
    label: 'エリア警告',
    description: '車両が利用可能エリアの外に出たとき、または禁止エリアに入ったとき',
    trigger: 'telemetry',
    param: null,
  },
  connect_error: {
    key: 'connect_error',
    label: '接続エラー',
    description: '端末が車両との接続の切断を報告したとき',
    trigger: 'telemetry',
    param: null,
  },
  terminal_duplicate: {
    key: 'terminal_duplicate',
    label: '端末の二重接続',
    description:
      '接続中のTCP端末（Teltonika・GT06）と同じIMEIで、別の接続が来たとき（なりすましの疑い。両方の接続元アドレスを通知します）',
    trigger: 'link',
    param: null,
  },
  terminal_new_address: {
    key: 'terminal_new_address',
    label: '端末の新しい接続元',
    description:
      'TCP端末がこれまでに使っていない接続元アドレスから接続したとき（会社の設定「新しい接続元を通知する」が有効な場合）',
    trigger: 'link',
    param: null,
  },
};

/** The items in the order of the settings screen. */
export const notifyItemList: NotifyItemMeta[] = notifyItemKeys.map((k) => notifyItems[k]);

/** At most one mail per account, vehicle and item within this many minutes. */
export const NOTIFY_COOLDOWN_MINUTES = 60;

export const notifyMessages = {
  range: (min: number, max: number) => `${min}〜${max}の範囲で入力してください`,
  integer: '整数で入力してください',
  ownOnly: '自分以外のアカウントの通知設定は表示・変更できません。',
  fetchFailed: '通知設定を取得できませんでした。管理者に問い合わせてください。',
  updateFailed: '通知設定の更新に失敗しました。管理者に問い合わせてください。',
  updated: '通知設定を更新しました。',
} as const;

const blankToNull = (v: unknown) => (v === '' || v === undefined ? null : v);

/** A number (or its digits as a string, as HTML inputs give) within the item's range; null when blank. */
const paramField = (p: NotifyParamMeta) =>
  z.preprocess(
    blankToNull,
    z
      .union(
        [
          z.number(),
          z
            .string()
            .trim()
            .regex(/^-?\d+(\.\d+)?$/, m.number),
        ],
        { error: m.number },
      )
      .transform(Number)
      .pipe(
        z
          .number({ error: m.number })
          .refine(Number.isFinite, m.number)
          .refine((v) => !p.integer || Number.isInteger(v), notifyMessages.integer)
          .refine((v) => v >= p.min && v <= p.max, notifyMessages.range(p.min, p.max)),
      )
      .nullable(),
  );

/** One item of the form: enable, and param where the item has one (required while enabled). */
const itemField = (meta: Pick<NotifyItemMeta, 'param'>) => {
  const p = meta.param;
  if (!p) {
    return z
      .object({ enable: flag().default(false), param: z.unknown().optional() }, { error: m.invalid })
      .transform((v) => ({ enable: v.enable, param: null as number | null }));
  }
  return z
    .object({ enable: flag().default(false), param: paramField(p) }, { error: m.invalid })
    .superRefine((v, ctx) => {
      if (v.enable && v.param === null) ctx.addIssue({ code: 'custom', path: ['param'], message: m.required });
    })
    .transform((v) => ({ enable: v.enable, param: v.param as number | null }));
};

const optionalEmail = z
  .string({ error: m.invalid })
  .trim()
  .max(254, m.tooLong)
  .refine((v) => v === '' || z.email().safeParse(v).success, m.email);

/** A missing item counts as switched off. */
const itemsShape = Object.fromEntries(
  notifyItemKeys.map((k) => [k, itemField(notifyItems[k]).prefault({ enable: false, param: null })]),
) as {
  [K in NotifyItemKey]: z.ZodPrefault<ReturnType<typeof itemField>>;
};

/** How an item is sent: by mail and/or browser push (docs/notifications.md "Browser push"). */
export const notifyChannels = ['mail', 'push'] as const;
export type NotifyChannel = (typeof notifyChannels)[number];
export const notifyChannelLabels: Record<NotifyChannel, string> = { mail: 'メール', push: 'プッシュ' };
export const NotifyItemChannels = z.object({ mail: z.boolean(), push: z.boolean() });
export type NotifyItemChannels = z.infer<typeof NotifyItemChannels>;
/** An item saved before channels existed, or left out of a request, goes by mail only. */
export const defaultItemChannels = (): NotifyItemChannels => ({ mail: true, push: false });
export const noChannelMessage = 'メールまたはプッシュを1つ以上選択してください';

const itemChannelsField = z
  .object({ mail: flag().default(true), push: flag().default(false) }, { error: m.invalid })
  .prefault({});
const channelsField = z
  .object(
    Object.fromEntries(notifyItemKeys.map((k) => [k, itemChannelsField])) as Record<
      NotifyItemKey,
      typeof itemChannelsField
    >,
    { error: m.invalid },
  )
  .prefault({});

/** The settings form; error keys are `info.<item>.param`, `info.channels.<item>.mail` etc. */
export const NotifySettingsForm = z
  .object({
    /** Where the mail goes; blank means the account's own address. */
    email: z.preprocess((v) => (v === null || v === undefined ? '' : v), optionalEmail),
    /** Kept for a messaging-service id (e.g. LINE); mail delivery does not use it. */
    messageId: z.preprocess(
      (v) => (v === null || v === undefined ? '' : v),
      z.string({ error: m.invalid }).trim().max(255, m.tooLong),
    ),
    ...itemsShape,
    /** Per item: mail and/or push; a switched-on item needs at least one. */
    channels: channelsField,
  })
  .superRefine((v, ctx) => {
    for (const k of notifyItemKeys) {
      const c = v.channels[k];
      if (v[k].enable && !c.mail && !c.push)
        ctx.addIssue({ code: 'custom', path: ['channels', k, 'mail'], message: noChannelMessage });
    }
  });
export type NotifySettingsFormInput = z.input<typeof NotifySettingsForm>;

export const NotifyItemSetting = z.object({ enable: z.boolean(), param: z.number().nullable() });
export type NotifyItemSetting = z.infer<typeof NotifyItemSetting>;

export const NotifySettings = z.object({
  email: z.string(),
  messageId: z.string(),
  ...(Object.fromEntries(notifyItemKeys.map((k) => [k, NotifyItemSetting])) as Record<
    NotifyItemKey,
    typeof NotifyItemSetting
  >),
  channels: z.object(
    Object.fromEntries(notifyItemKeys.map((k) => [k, NotifyItemChannels])) as Record<
      NotifyItemKey,
      typeof NotifyItemChannels
    >,
  ),
});
export type NotifySettings = z.infer<typeof NotifySettings>;

/** Settings of an account that never saved any: everything off, params at their defaults. */
export const defaultNotifySettings = (): NotifySettings => ({
  email: '',
  messageId: '',
  ...(Object.fromEntries(
    notifyItemKeys.map((k) => [k, { enable: false, param: notifyItems[k].param?.default ?? null }]),
  ) as Record<NotifyItemKey, NotifyItemSetting>),
  channels: Object.fromEntries(notifyItemKeys.map((k) => [k, defaultItemChannels()])) as Record<
    NotifyItemKey,
    NotifyItemChannels
  >,
});

export const AccountNotifyRequest = z.object({ account_id: idField() });
export const AccountNotifyResponse = z.object({ notify: NotifySettings });
export const accountNotify = defineCall('/api/account_notify', AccountNotifyRequest, AccountNotifyResponse);

export const AccountNotifyUpdateRequest = z.object({ account_id: idField(), info: NotifySettingsForm });
export const accountNotifyUpdate = defineCall('/api/account_notify_update', AccountNotifyUpdateRequest, OkResponse);

/** The super admin's view of outgoing mail (ours, not in docs/product.md §7). */
export const mailOutboxStatuses = ['all', 'pending', 'sent', 'failed'] as const;
export type MailOutboxStatus = (typeof mailOutboxStatuses)[number];
export const mailOutboxStatusLabels: Record<Exclude<MailOutboxStatus, 'all'>, string> = {
  pending: '送信待ち',
  sent: '送信済み',
  failed: '送信失敗',
};
export const mailKindLabels: Record<string, string> = {
  notification: '通知',
  password_reset: 'パスワード再設定',
  password_changed: 'パスワード変更のお知らせ',
};

export const MailOutboxListRequest = z.object({
  status: z.enum(mailOutboxStatuses, { error: m.invalid }).default('all'),
  offset: z.number({ error: m.number }).int().min(0).max(10_000_000).default(0),
  limit: z.number({ error: m.number }).int().min(1).max(MAX_PAGE_SIZE).default(PAGE_SIZE),
});
export const MailOutboxRow = z.object({
  id: z.number().int(),
  to_addr: z.string(),
  subject: z.string(),
  kind: z.string(),
  status: z.enum(['pending', 'sent', 'failed']),
  attempts: z.number().int(),
  /** ISO 8601 (UTC) */
  next_attempt_at: timestamp(),
  last_error: z.string().nullable(),
  sent_at: timestamp().nullable(),
  created_at: timestamp(),
});
export type MailOutboxRow = z.infer<typeof MailOutboxRow>;
export const MailOutboxListResponse = CountResponse.extend({ list: z.array(MailOutboxRow) });
export const mailOutboxList = defineCall('/api/mail_outbox_list', MailOutboxListRequest, MailOutboxListResponse);

/** The item and channel fields of the settings form, for the group settings (group-notify.ts). */
export { itemField as notifyItemField, itemChannelsField as notifyItemChannelsField };
