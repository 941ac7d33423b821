import { z } from 'zod';
import { defineCall } from './call.js';
import { idField } from './fields.js';
import { validationMessages as m } from './messages.js';

/**
 * 二段階認証 (TOTP, RFC 6238): a 6-digit code from an authenticator app, a new one every 30 s.
 * Not in docs/product.md; ours (docs/decisions.md "TOTP sign-in").
 */
export const TOTP_DIGITS = 6;
export const TOTP_PERIOD_SECONDS = 30;
/** The issuer shown in authenticator apps. */
export const TOTP_ISSUER = '車両管理コンソール';

export const totpMessages = {
  otpRequired: '認証アプリに表示されている6桁の確認コードを入力してください。',
  otpFormat: '6桁の数字で入力してください',
  otpWrong: '確認コードが正しくありません。',
  notPending: '先に二段階認証の設定を開始してください。',
  alreadyEnabled: '二段階認証は既に有効です。',
  notEnabled: '二段階認証は有効になっていません。',
  passwordWrong: 'パスワードが正しくありません。',
  setupRequired: '所属会社の設定により、二段階認証の設定が必要です。設定を完了するまで他の画面は利用できません。',
  requiredByCompany: '所属会社の設定により、二段階認証を無効にすることはできません。',
  ownTotpFirst: '二段階認証を必須にするには、先にご自身の二段階認証を有効にしてください。',
} as const;

/** A one-time code as typed: spaces dropped, then exactly six digits. */
export const otpField = () =>
  z
    .string({ error: m.required })
    .transform((s) => s.replace(/\s+/g, ''))
    .pipe(
      z
        .string()
        .min(1, m.required)
        .regex(/^\d{6}$/, totpMessages.otpFormat),
    );

export const TotpStatusResponse = z.object({
  enabled: z.boolean(),
  /** The account's company requires TOTP of its accounts. */
  required: z.boolean(),
});
export const totpStatus = defineCall('/api/totp_status', z.object({}).optional(), TotpStatusResponse);

/** Starts (or restarts) setting up: a new pending secret, shown once, until confirmed by totp_enable. */
export const TotpSetupResponse = z.object({ secret: z.string(), otpauth_url: z.string() });
export const totpSetup = defineCall('/api/totp_setup', z.object({}).optional(), TotpSetupResponse);

export const TotpEnableRequest = z.object({ otp: otpField() });
export const totpEnable = defineCall('/api/totp_enable', TotpEnableRequest, z.object({ ok: z.boolean() }));

export const TotpDisableRequest = z.object({
  password: z.string({ error: m.required }).min(1, m.required).max(128, m.tooLong),
  otp: otpField(),
});
export const totpDisable = defineCall('/api/totp_disable', TotpDisableRequest, z.object({ ok: z.boolean() }));

/** A company's policy: every account of it must sign in with TOTP. Company admins (own company) and the super admin. */
export const CompanyTotpPolicyRequest = z.object({ company_id: idField() });
export const CompanyTotpPolicyResponse = z.object({ company_id: z.string(), require_totp: z.boolean() });
export const companyTotpPolicy = defineCall(
  '/api/company_totp_policy',
  CompanyTotpPolicyRequest,
  CompanyTotpPolicyResponse,
);

export const CompanyTotpPolicyUpdateRequest = z.object({
  company_id: idField(),
  require_totp: z.boolean({ error: m.invalid }),
});
export const companyTotpPolicyUpdate = defineCall(
  '/api/company_totp_policy_update',
  CompanyTotpPolicyUpdateRequest,
  z.object({ ok: z.boolean() }),
);
