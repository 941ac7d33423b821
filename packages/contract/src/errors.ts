import { z } from 'zod';

/** Stable codes of every error the API answers with (the `code` of ApiError). */
export const errorCodes = [
  'BAD_REQUEST',
  'UNAUTHORIZED',
  'FORBIDDEN',
  'NOT_FOUND',
  'CONFLICT',
  'TOO_MANY_REQUESTS',
  /** A prohibit needs a recent step-up (POST /api/step_up): the console asks for the password. */
  'STEP_UP_REQUIRED',
  /** The password was right; the account has TOTP on: the login screen asks for the 6-digit code. */
  'OTP_REQUIRED',
  /** The account's company requires TOTP and the account has none yet: only its setup is open. */
  'TOTP_SETUP_REQUIRED',
  'UNAVAILABLE',
  'INTERNAL',
] as const;
export type ErrorCode = (typeof errorCodes)[number];

/** The one error shape every API call answers with on 4xx/5xx. */
export const ApiError = z.object({
  code: z.enum(errorCodes),
  message: z.string(),
  /** Per-field messages, keyed like the request (nested keys joined with '.'). */
  errors: z.record(z.string(), z.string()).optional(),
});
export type ApiError = z.infer<typeof ApiError>;

/** Turns a zod error into per-field messages: first message per path wins. */
export function fieldErrors(error: z.ZodError): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = issue.path.length ? issue.path.map(String).join('.') : '_';
    out[key] ??= issue.message;
  }
  return out;
}
