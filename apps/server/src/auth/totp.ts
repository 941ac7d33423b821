import {
  RECOVERY_CODE_COUNT,
  TOTP_DIGITS,
  TOTP_ISSUER,
  TOTP_PERIOD_SECONDS,
  formatRecoveryCode,
  totpMessages,
} from '@fleet/contract';
import { Secret, TOTP } from 'otpauth';
import { writeAudit } from '../audit/audit.repository.js';
import type { Db } from '../db/database.js';
import { AppError } from '../http/errors.js';
import { hashToken } from '../sessions/token.js';
import { consumeRecoveryCode, consumeStep, countRecoveryCodesLeft, findTotp } from './totp.repository.js';

/**
 * 二段階認証 (TOTP, RFC 6238) through `otpauth`: SHA-1, 6 digits, 30 s, what every authenticator app
 * reads from a QR code. A code is accepted for the current step and one either side (clock drift),
 * and each step at most once per account (replay), whatever call it was used for. Recovery codes
 * stand in for a code where the app is out of reach, each once.
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

/** What a call gave as its second factor: the 6-digit code or, in its place, a recovery code. */
export interface SecondFactorInput {
  otp?: string | undefined;
  recovery_code?: string | undefined;
}
type Via = 'otp' | 'recovery_code';
/** A second factor that was not accepted: none given, or refused. */
export type RefusedFactor = { result: 'missing' } | { result: 'wrong' | 'used'; via: Via };
export type SecondFactor = { result: 'off' } | { result: 'ok'; via: Via } | RefusedFactor;

/** Ten new recovery codes as shown (`abcd-efgh-…`) and the hashes to store: 80 random bits each. */
export function newRecoveryCodes(): { codes: string[]; hashes: string[] } {
  const raw = Array.from({ length: RECOVERY_CODE_COUNT }, () => new Secret({ size: 10 }).base32.toLowerCase());
  return { codes: raw.map(formatRecoveryCode), hashes: raw.map(hashRecoveryCode) };
}
/** The stored form of a recovery code: the SHA-256 of its 16 characters (hyphens, spaces and case dropped). */
const hashRecoveryCode = (code: string) => hashToken(code.replace(/[\s-]+/g, '').toLowerCase());

/**
 * The second factor of a call whose password was right: 'off' when the account has no TOTP;
 * otherwise the code (its time step used up) or the recovery code (marked used) is checked: 'ok', or
 * refused as 'wrong' or 'used'. A recovery code used is an audit row naming the call and how many
 * are left.
 */
export async function checkSecondFactor(
  db: Db,
  accountId: string,
  input: SecondFactorInput,
  call: string,
): Promise<SecondFactor> {
  const totp = await findTotp(db, accountId);
  if (!totp?.secret) return { result: 'off' };
  if (input.recovery_code !== undefined && input.recovery_code !== '') {
    const result = await consumeRecoveryCode(db, accountId, hashRecoveryCode(input.recovery_code));
    if (result !== 'ok') return { result, via: 'recovery_code' };
    await writeAudit(db, { account_id: accountId }, 'account.totp_recovery_used', 'account', accountId, {
      call,
      remaining: await countRecoveryCodesLeft(db, accountId),
    });
    return { result, via: 'recovery_code' };
  }
  if (input.otp === undefined || input.otp.trim() === '') return { result: 'missing' };
  const step = stepOfCode(totp.secret, input.otp);
  if (step === undefined) return { result: 'wrong', via: 'otp' };
  return (await consumeStep(db, accountId, step)) ? { result: 'ok', via: 'otp' } : { result: 'used', via: 'otp' };
}

const refusals = {
  otp: { wrong: totpMessages.otpWrong, used: totpMessages.otpUsed },
  recovery_code: { wrong: totpMessages.recoveryCodeWrong, used: totpMessages.recoveryCodeUsed },
} as const;

/**
 * The refusal of a missing or refused code: 401 OTP_REQUIRED, or 401 with the field's error. A code
 * that was good but is used up says so, so that the user waits for the app's next code.
 */
export function otpRefusal(check: RefusedFactor): AppError {
  if (check.result === 'missing')
    return new AppError(401, 'OTP_REQUIRED', totpMessages.otpRequired, { otp: totpMessages.otpRequired });
  const message = refusals[check.via][check.result];
  return new AppError(401, 'UNAUTHORIZED', message, { [check.via]: message });
}
