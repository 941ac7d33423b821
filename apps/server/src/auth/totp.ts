import { TOTP_DIGITS, TOTP_ISSUER, TOTP_PERIOD_SECONDS, totpMessages } from '@fleet/contract';
import { Secret, TOTP } from 'otpauth';
import type { Db } from '../db/database.js';
import { AppError } from '../http/errors.js';
import { consumeStep, findTotp } from './totp.repository.js';

/**
 * 二段階認証 (TOTP, RFC 6238) through `otpauth`: SHA-1, 6 digits, 30 s, what every authenticator app
 * reads from a QR code. A code is accepted for the current step and one either side (clock drift),
 * and each step at most once per account (replay), whatever call it was used for.
 */
const totpOf = (secret: string, label = '') =>
  new TOTP({
    issuer: TOTP_ISSUER,
    label,
    algorithm: 'SHA1',
    digits: TOTP_DIGITS,
    period: TOTP_PERIOD_SECONDS,
    secret: Secret.fromBase32(secret),
  });

/** A new random secret (160 bits, RFC 4226's recommendation), base32 as apps take it. */
export const newTotpSecret = () => new Secret({ size: 20 }).base32;

export const otpauthUrl = (secret: string, accountId: string) => totpOf(secret, accountId).toString();

/** The time step a code belongs to, when it is one of the secret's codes for now ± one step. */
export function stepOfCode(secret: string, otp: string, now = Date.now()): number | undefined {
  const code = otp.replace(/\s+/g, '');
  if (!/^\d{6}$/.test(code)) return undefined;
  const delta = totpOf(secret).validate({ token: code, timestamp: now, window: 1 });
  return delta === null ? undefined : Math.floor(now / 1000 / TOTP_PERIOD_SECONDS) + delta;
}

export type SecondFactor = 'off' | 'missing' | 'wrong' | 'ok';

/**
 * The second factor of a sign-in or step-up whose password was right: 'off' when the account has
 * no TOTP; otherwise the code is checked and its step used up ('ok'), or refused.
 */
export async function checkSecondFactor(db: Db, accountId: string, otp: string | undefined): Promise<SecondFactor> {
  const totp = await findTotp(db, accountId);
  if (!totp?.secret) return 'off';
  if (otp === undefined || otp.trim() === '') return 'missing';
  const step = stepOfCode(totp.secret, otp);
  return step !== undefined && (await consumeStep(db, accountId, step)) ? 'ok' : 'wrong';
}

/** The refusal of a missing or wrong code: 401 OTP_REQUIRED, or 401 with the code field's error. */
export const otpRefusal = (result: 'missing' | 'wrong') =>
  result === 'missing'
    ? new AppError(401, 'OTP_REQUIRED', totpMessages.otpRequired, { otp: totpMessages.otpRequired })
    : new AppError(401, 'UNAUTHORIZED', totpMessages.otpWrong, { otp: totpMessages.otpWrong });
