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
  otpUsed: 'このコードは使用済みです。次のコードを入力してください。',
  recoveryCodeFormat: 'リカバリーコードは「xxxx-xxxx-xxxx-xxxx」の16文字で入力してください',
  recoveryCodeWrong: 'リカバリーコードが正しくありません。',
  recoveryCodeUsed: 'このリカバリーコードは使用済みです。別のリカバリーコードを入力してください。',
  oneCodeOnly: '確認コードとリカバリーコードは、どちらか一方だけを入力してください',
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

/**
 * Recovery codes: single-use codes that stand in for the 6-digit code when the app is out of reach.
 * Ten of them, answered once by totp_enable and by totp_recovery_codes (which replaces them all);
 * the server keeps only their SHA-256. 16 characters of base32 (80 random bits), shown in groups of four.
 */
export const RECOVERY_CODE_COUNT = 10;
const RECOVERY_CODE_CHARS = /^[a-z2-7]{16}$/;

/** A recovery code as typed: spaces and hyphens dropped, any case; then its 16 characters. */
export const recoveryCodeField = () =>
  z
    .string({ error: m.required })
    .transform((s) => s.replace(/[\s-]+/g, '').toLowerCase())
    .pipe(z.string().min(1, m.required).regex(RECOVERY_CODE_CHARS, totpMessages.recoveryCodeFormat));

/** How a recovery code is shown: `abcd-efgh-2345-6723`. */
export const formatRecoveryCode = (code: string) => code.match(/.{1,4}/g)?.join('-') ?? code;

/** The second factor of a call: the 6-digit code or, in its place, a recovery code; never both. */
export const secondFactorFields = {
  otp: otpField().optional(),
  recovery_code: recoveryCodeField().optional(),
};
const notBoth = (v: { otp?: string | undefined; recovery_code?: string | undefined }, ctx: z.RefinementCtx) => {
  if (v.otp !== undefined && v.otp !== '' && v.recovery_code !== undefined)
    ctx.addIssue({ code: 'custom', path: ['recovery_code'], message: totpMessages.oneCodeOnly });
};
/** The password and one of the two codes (disable, new recovery codes). */
const passwordAndCode = () =>
  z
    .object({
      password: z.string({ error: m.required }).min(1, m.required).max(128, m.tooLong),
      ...secondFactorFields,
    })
    .superRefine(notBoth)
    // Also when the password is missing, so that an empty form names both of its fields.
    .refine((v) => typeof v !== 'object' || v === null || v.otp !== undefined || v.recovery_code !== undefined, {
      path: ['otp'],
      message: m.required,
      when: () => true,
    });
/** A login or step-up that gave both codes: refused (400) before anything is checked. */
export const withOneCode = <T extends z.ZodObject>(schema: T) => schema.superRefine(notBoth);

export const TotpStatusResponse = z.object({
  enabled: z.boolean(),
  /** The account's company requires TOTP of its accounts. */
  required: z.boolean(),
  /** Recovery codes not used yet (0 without TOTP). */
  recovery_codes_left: z.number().int(),
});
export const totpStatus = defineCall('/api/totp_status', z.object({}).optional(), TotpStatusResponse);

/** Starts (or restarts) setting up: a new pending secret, shown once, until confirmed by totp_enable. */
export const TotpSetupResponse = z.object({ secret: z.string(), otpauth_url: z.string() });
export const totpSetup = defineCall('/api/totp_setup', z.object({}).optional(), TotpSetupResponse);

/** The recovery codes as shown once, formatted (`formatRecoveryCode`). */
export const RecoveryCodesResponse = z.object({ ok: z.boolean(), recovery_codes: z.array(z.string()) });

export const TotpEnableRequest = z.object({ otp: otpField() });
export const totpEnable = defineCall('/api/totp_enable', TotpEnableRequest, RecoveryCodesResponse);

export const TotpDisableRequest = passwordAndCode();
export const totpDisable = defineCall('/api/totp_disable', TotpDisableRequest, z.object({ ok: z.boolean() }));

/** New recovery codes with the password and a code: the old ones, used or not, stop working. */
export const TotpRecoveryCodesRequest = passwordAndCode();
export const totpRecoveryCodes = defineCall(
  '/api/totp_recovery_codes',
  TotpRecoveryCodesRequest,
  RecoveryCodesResponse,
);

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
