/** Texts of the notification screens (通知設定, 通知履歴); items, channels and messages come from the contract. */
export const notifyTexts = {
  /** `/notify` */
  settings: {
    title: '通知設定',
    description: '車両に異常があったときに送信するメール・ブラウザのプッシュ通知の設定です。',
    email: '通知先メールアドレス',
    emailHint: '空欄の場合はアカウントのメールアドレスに送信します',
    messageId: 'メッセージID',
    messageIdHint: '外部メッセージサービスの宛先ID（任意）',
    items: '通知する項目',
    itemsHint: '同じ車両・同じ項目の通知は60分に1通までです。',
    /** A channel's checkbox of one item, for screen readers. */
    channelOf: (item: string, channel: string) => `${item}：${channel}`,
    /** A number setting with its unit. */
    param: (label: string, unit: string) => `${label}（${unit}）`,
    save: '設定を保存する',
  },
  /** push-control.tsx: 「このブラウザで通知を受け取る」 */
  push: {
    label: 'ブラウザ通知',
    /** The card's heading and its subscribe button. */
    title: 'このブラウザで通知を受け取る',
    unsubscribe: '受信を停止する',
    states: {
      checking: '確認中',
      unsupported: '利用不可',
      denied: 'ブロック中',
      subscribed: '受信中',
      unsubscribed: '未登録',
    },
    note: '（「プッシュ」を選んだ項目を、このブラウザに通知します。通知をクリックすると車両の詳細を開きます）',
  },
  /** `/notify/history` */
  history: {
    title: '通知履歴',
    description: '車両の通知をどこへ送ったか（メール・プッシュ・Webhook）と、届いたかどうかの一覧です。',
    empty: '通知の履歴はありません',
  },
} as const;

/** group-notify.tsx: the settings of a vehicle group (拠点・部署) on `/notify`. */
export const groupNotifyTexts = {
  tabOwn: '自分の通知',
  tabGroups: '拠点・部署の通知',
  description:
    '拠点・部署の車両について、選んだアカウントに通知します。各アカウント自身の通知設定に加えて送信します（同じ車両・同じ項目は60分に1通までです）。',
  group: '拠点・部署',
  groupPlaceholder: '拠点・部署を選択してください',
  noGroups: '拠点・部署がありません。車両管理 → 拠点・部署 で登録してください。',
  recipients: '通知先アカウント',
  recipientsHint: 'この拠点・部署の車両を見られる、会社のアカウントから選びます',
  items: '通知する項目',
  save: '拠点・部署の通知設定を保存する',
  groupLabel: (name: string, company: string | null) => (company ? `${name}（${company}）` : name),
} as const;
