import { z } from 'zod';
import { defineCall } from './call.js';
import { idField } from './fields.js';
import { CountResponse, MAX_PAGE_SIZE, PAGE_SIZE } from './list.js';
import { validationMessages as m } from './messages.js';

/**
 * The audit log: who did what to accounts, companies, vehicles, areas and
 * engine commands (ours, not in docs/product.md §7). Visible to the super admin only.
 */
export const auditTargetTypes = [
  'account',
  'company',
  'car',
  'area',
  'area_template',
  'engine_command',
  'reservation_request',
  'zone',
] as const;
export type AuditTargetType = (typeof auditTargetTypes)[number];
export const auditTargetLabels: Record<AuditTargetType, string> = {
  account: 'アカウント',
  company: '加盟店',
  car: '車両',
  area: 'エリア',
  area_template: 'エリアテンプレート',
  engine_command: 'エンジン・端末コマンド',
  reservation_request: 'エンジン予約リクエスト',
  zone: 'ゾーン',
};

/** Actions as `<target>.<verb>`; the label is what the log screen shows. */
export const auditActionLabels: Record<string, string> = {
  'account.add': 'アカウント登録',
  'account.update': 'アカウント更新',
  'account.delete': 'アカウント削除',
  'account.restore': 'アカウント復元',
  'account.password': 'パスワード変更',
  password_reset_by_token: 'パスワード再設定（メール）',
  'company.add': '加盟店登録',
  'company.update': '加盟店更新',
  'company.delete': '加盟店削除',
  'company.restore': '加盟店復元',
  'company.trip_settings': '運行判定の設定の変更',
  'company.terminal_policy': '端末の接続元の通知の設定',
  'car.add': '車両登録',
  'car.update': '車両更新',
  'car.status': '車両ステータス変更',
  'car.delete': '車両削除',
  'car.restore': '車両復元',
  'area.available_data': '利用可能範囲の変更',
  'area.available': '利用可能エリアの変更',
  'area.disable': '禁止エリアの変更',
  'area.template_apply': 'エリアテンプレートの適用',
  'area_template.save': 'エリアテンプレート保存',
  'area_template.delete': 'エリアテンプレート削除',
  'engine_command.reserve': 'コマンド予約',
  'engine_command.delete': 'コマンド予約の削除',
  'reservation_request.add': 'エンジン予約リクエスト登録',
  'reservation_request.cancel': 'エンジン予約リクエスト取消',
  'engine_command.cancel': 'コマンド取消（権限なし）',
  'account.engine_control': 'エンジン制御権限の変更',
  'session.step_up': '本人確認（エンジン始動禁止の前）',
  'account.totp_recovery_used': 'リカバリーコードの使用',
  'account.totp_recovery_codes': 'リカバリーコードの再発行',
  'zone.add': 'ゾーン登録',
  'zone.update': 'ゾーン更新',
  'zone.delete': 'ゾーン削除',
  'zone.assign': 'ゾーンの割り当て',
  'group.add': '拠点・部署登録',
  'group.update': '拠点・部署更新',
  'group.delete': '拠点・部署削除',
  'group.assign': '拠点・部署の割り当て',
  'group.limit': '拠点・部署による制限の変更',
  'group.zones': '拠点・部署のゾーンの変更',
  'account.totp_enable': '二段階認証の設定',
  'account.totp_disable': '二段階認証の解除',
  'company.totp_policy': '二段階認証の必須設定の変更',
};

export const AuditLogListRequest = z.object({
  target_type: z.enum(auditTargetTypes, { error: m.invalid }).optional(),
  target_id: z.string({ error: m.invalid }).trim().max(64, m.tooLong).optional(),
  /** Who did it. */
  account_id: idField().optional(),
  offset: z.number({ error: m.number }).int().min(0).max(10_000_000).default(0),
  limit: z.number({ error: m.number }).int().min(1).max(MAX_PAGE_SIZE).default(PAGE_SIZE),
});
export const AuditLogRow = z.object({
  id: z.number().int(),
  /** ISO 8601 (UTC) */
  at: z.string(),
  account_id: z.string().nullable(),
  account_name: z.string().nullable(),
  action: z.string(),
  target_type: z.string(),
  target_id: z.string(),
  detail: z.record(z.string(), z.unknown()),
});
export type AuditLogRow = z.infer<typeof AuditLogRow>;
/** Newest first; count is of the whole filtered log. */
export const auditLogList = defineCall(
  '/api/audit_log_list',
  AuditLogListRequest,
  CountResponse.extend({ list: z.array(AuditLogRow) }),
);
