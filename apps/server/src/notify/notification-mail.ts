import { notifyKeyLabel, type NotifyKey } from '@fleet/contract';
import { formatJst, MAIL_FOOTER, mapLink } from '../mail/format.js';

export interface NotificationMailInput {
  recipientName: string;
  car: { car_id: string; car_number: string };
  item: NotifyKey;
  /** What happened, one Japanese sentence. */
  what: string;
  /** When it happened (the record's time, or the sweep's for time-based items). */
  at: Date;
  position: { lat: number; lng: number } | null;
  publicUrl: string;
  /** The group whose settings sent it (docs/notifications.md "Group settings"); null: the recipient's own. */
  via?: string | null;
}

/** The Japanese notification mail: which vehicle, what, when (JST), where, and the vehicle screen. */
export function composeNotificationMail(n: NotificationMailInput): { subject: string; body: string } {
  const label = notifyKeyLabel(n.item);
  const carName = n.car.car_number.trim() || n.car.car_id;
  const subject = `【車両通知】${label}：${carName}（車両ID: ${n.car.car_id}）`;
  const where = n.position
    ? [
        `位置：緯度 ${n.position.lat.toFixed(6)}、経度 ${n.position.lng.toFixed(6)}`,
        `地図：${mapLink(n.position.lat, n.position.lng)}`,
      ]
    : ['位置：不明（位置情報を受信していません）'];
  const body = [
    `${n.recipientName} 様`,
    '',
    `車両で「${label}」を検知しました。`,
    '',
    `車両番号：${n.car.car_number.trim() || '（未登録）'}`,
    `車両ID：${n.car.car_id}`,
    `内容：${n.what}`,
    `日時：${formatJst(n.at)}（日本時間）`,
    ...where,
    '',
    `車両の詳細：${n.publicUrl}/car/car_detail/${encodeURIComponent(n.car.car_id)}`,
    ...(n.via ? [`拠点・部署「${n.via}」の通知設定による通知です。`] : []),
    `通知設定の変更：${n.publicUrl}/notify`,
    MAIL_FOOTER,
  ].join('\n');
  return { subject, body };
}
