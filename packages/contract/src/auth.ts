import { z } from 'zod';
import { defineCall } from './call.js';
import { validationMessages as m } from './messages.js';
import { idField } from './fields.js';
import { otpField, recoveryCodeField, withOneCode } from './totp.js';

const credential = (max: number) => z.string({ error: m.required }).min(1, m.required).max(max, m.tooLong);

export const LoginRequest = withOneCode(
  z.object({
    /** account_id or email */
    username: credential(254).transform((s) => s.trim()),
    password: credential(128),
    /** The 6-digit TOTP code, for accounts with 二段階認証 on (asked after OTP_REQUIRED). */
    otp: otpField().optional(),
    /** A recovery code in place of the 6-digit code (single use). */
    recovery_code: recoveryCodeField().optional(),
  }),
);
export const LoginResponse = z.object({
  id: z.string(),
  username: z.string(),
  role: z.number().int(),
  token: z.string(),
  company_id: z.string().nullable(),
});
export const login = defineCall('/api/login', LoginRequest, LoginResponse);

export const OkResponse = z.object({ ok: z.boolean() });
export const EmptyRequest = z.object({}).strict().or(z.null()).or(z.undefined()).optional();

export const logout = defineCall('/api/logout', z.object({}).optional(), OkResponse);

export const CheckTokenRequest = z.object({
  account_id: credential(64),
  token: credential(256),
});
export const checkToken = defineCall('/api/checkToken', CheckTokenRequest, OkResponse);

/** The session_* calls store one selected id in the server-side session. */
const sessionIdCall = <K extends string>(path: `/api/${string}`, key: K) =>
  defineCall(path, z.object({ [key]: idField() } as Record<K, ReturnType<typeof idField>>), OkResponse);

export const sessionAccountId = sessionIdCall('/api/session_account_id', 'account_id');
export const sessionCarId = sessionIdCall('/api/session_car_id', 'car_id');
export const sessionUserId = sessionIdCall('/api/session_user_id', 'user_id');
export const sessionDataId = sessionIdCall('/api/session_data_id', 'car_data_id');
export const sessionDeviceId = sessionIdCall('/api/session_device_id', 'car_device_id');
export const sessionCompanyId = sessionIdCall('/api/session_company_id', 'company_id');

/** Keys of the server-side session selection, by call. */
export const sessionSelections = {
  account_id: sessionAccountId,
  car_id: sessionCarId,
  user_id: sessionUserId,
  car_data_id: sessionDataId,
  car_device_id: sessionDeviceId,
  company_id: sessionCompanyId,
} as const;

/** What the console asks the server about the signed-in account (not in SPEC §7; ours). */
export const MeResponse = z.object({
  account_id: z.string(),
  name: z.string(),
  role: z.number().int(),
  company_id: z.string().nullable(),
  company_name: z.string().nullable(),
  /** The account's right to permit / prohibit engine start (エンジン制御権限). */
  engine_control: z.boolean(),
  /** Until when this session may prohibit without a new step-up; null: not stepped up. */
  stepped_up_until: z.string().nullable(),
  selection: z.record(z.string(), z.string().nullable()),
  /** Limited to vehicle groups (docs/groups.md): it may not change groups, so the console offers none. */
  groups_limited: z.boolean(),
});
/**
 * Step-up before a prohibit (docs/engine-control.md): the password again (and the one-time code where
 * the account has TOTP) marks this session elevated for STEP_UP_MINUTES.
 */
export const StepUpRequest = withOneCode(
  z.object({
    password: credential(128),
    otp: z.string({ error: m.invalid }).trim().max(16, m.tooLong).optional(),
    /** A recovery code in place of the 6-digit code (single use). */
    recovery_code: recoveryCodeField().optional(),
  }),
);
export const stepUp = defineCall('/api/step_up', StepUpRequest, OkResponse.extend({ stepped_up_until: z.string() }));

export const me = defineCall('/api/me', z.object({}).optional(), MeResponse);
