import { z } from 'zod';
import { OkResponse } from './auth.js';
import { defineCall } from './call.js';
import { email, password } from './fields.js';
import { validationMessages as m } from './messages.js';

/**
 * Password reset by mail (docs/product.md §7 resetpassword_email, docs/decisions.md):
 * the request always gets the same answer; the mail carries a one-time link
 * `${PUBLIC_URL}/password_reset?token=<token>` valid for 30 minutes, and the
 * screen it opens sets the new password with password_reset_by_token.
 */
export const PASSWORD_RESET_TOKEN_MINUTES = 30;
/** Query parameter of the link in the mail. */
export const PASSWORD_RESET_TOKEN_PARAM = 'token';

export const passwordResetMessages = {
  /** The one answer to every request, whether the address is registered or not. */
  requested:
    '入力されたメールアドレスが登録されている場合は、パスワード再設定用のメールを送信しました。メールに記載されたリンクから30分以内に新しいパスワードを設定してください。',
  tooMany: 'パスワード再設定の申し込みが多すぎます。しばらく時間をおいてから再度お試しください。',
  sendFailed: 'メールの送信に失敗しました。管理者に問い合わせてください。',
  tokenInvalid: 'このリンクは無効です。お手数ですが、パスワード再設定をもう一度お申し込みください。',
  tokenUsed: 'このリンクは既に使用されています。お手数ですが、パスワード再設定をもう一度お申し込みください。',
  tokenExpired:
    'このリンクは有効期限（30分）が切れています。お手数ですが、パスワード再設定をもう一度お申し込みください。',
  done: 'パスワードを変更しました。新しいパスワードでログインしてください。',
} as const;

export const ResetPasswordEmailRequest = z.object({ email: email() });
export const resetPasswordEmail = defineCall('/api/resetpassword_email', ResetPasswordEmailRequest, OkResponse);

export const PasswordResetByTokenRequest = z
  .object({
    token: z
      .string({ error: passwordResetMessages.tokenInvalid })
      .trim()
      .min(1, passwordResetMessages.tokenInvalid)
      .max(256, passwordResetMessages.tokenInvalid),
    password: password(),
    password_confirm: z.string({ error: m.required }).min(1, m.required),
  })
  .superRefine((v, ctx) => {
    if (v.password !== v.password_confirm)
      ctx.addIssue({ code: 'custom', path: ['password_confirm'], message: m.confirmed });
  });
export type PasswordResetByTokenInput = z.input<typeof PasswordResetByTokenRequest>;
export const passwordResetByToken = defineCall('/api/password_reset_by_token', PasswordResetByTokenRequest, OkResponse);
