import { PASSWORD_RESET_TOKEN_MINUTES, PASSWORD_RESET_TOKEN_PARAM } from '@fleet/contract';
import { formatJst, MAIL_FOOTER } from '../mail/format.js';

export const resetLink = (publicUrl: string, token: string) =>
  `${publicUrl}/password_reset?${PASSWORD_RESET_TOKEN_PARAM}=${encodeURIComponent(token)}`;

export function composeResetMail(a: { name: string }, link: string, expiresAt: Date) {
  return {
    subject: '【フリートコンソール】パスワード再設定のご案内',
    body: [
      `${a.name} 様`,
      '',
      'パスワード再設定のお申し込みを受け付けました。',
      '以下のリンクを開き、新しいパスワードを設定してください。',
      '',
      link,
      '',
      `有効期限：${formatJst(expiresAt)}（日本時間、お申し込みから${PASSWORD_RESET_TOKEN_MINUTES}分間）`,
      'リンクは一度だけ使用できます。',
      '',
      'このお申し込みに心当たりがない場合は、このメールを破棄してください。パスワードは変更されません。',
      MAIL_FOOTER,
    ].join('\n'),
  };
}

export function composePasswordChangedMail(a: { name: string; account_id: string }, at: Date, publicUrl: string) {
  return {
    subject: '【フリートコンソール】パスワードを変更しました',
    body: [
      `${a.name} 様`,
      '',
      `アカウント（${a.account_id}）のパスワードを ${formatJst(at)}（日本時間）に変更しました。`,
      'すべての端末でログアウトしました。新しいパスワードでログインしてください。',
      `${publicUrl}/`,
      '',
      'この変更に心当たりがない場合は、至急管理者に連絡してください。',
      MAIL_FOOTER,
    ].join('\n'),
  };
}
