import { STEP_UP_MINUTES, engineMessages, sessionMessages } from '@fleet/contract';
import type { Db } from '../db/database.js';
import type { AuthedActor } from '../http/context.js';
import { AppError, tooManyRequests } from '../http/errors.js';
import { beginLoginAttempt, markLoginSucceeded } from '../credentials/login-limit.js';
import { verifyPassword } from '../credentials/password.js';
import { checkSecondFactor, otpRefusal, type SecondFactorInput } from './totp.js';

/**
 * The step-up before a prohibit (docs/engine-control.md): the account's password again. Each try
 * counts against the account's and the address's login limits (keyed on the account id, whatever
 * name the session signed in with), so a stolen session cannot guess the password faster than a
 * login could. Accounts with TOTP give the code (or a recovery code) too (401 OTP_REQUIRED without
 * it). Returns until when the session is elevated; a wrong password or code is 401 with a field error.
 */
export async function verifyStepUp(
  db: Db,
  actor: AuthedActor,
  input: { password: string } & SecondFactorInput,
  ip: string,
): Promise<Date> {
  const attempt = await beginLoginAttempt(db, ip, actor.account_id);
  if (attempt === undefined) throw tooManyRequests(sessionMessages.tooManyAttempts);
  const account = await db
    .selectFrom('accounts')
    .select('password_hash')
    .where('account_id', '=', actor.account_id)
    .executeTakeFirst();
  if (!(await verifyPassword(input.password, account?.password_hash)))
    throw new AppError(401, 'UNAUTHORIZED', engineMessages.stepUpFailed, { password: engineMessages.stepUpFailed });
  const second = await checkSecondFactor(db, actor.account_id, input, 'step_up');
  // The password was right: only a refused code counts as a failed try.
  if (second.result === 'missing') await markLoginSucceeded(db, attempt);
  if (second.result !== 'off' && second.result !== 'ok') throw otpRefusal(second);
  await markLoginSucceeded(db, attempt);
  return stepUpUntil();
}

/**
 * Until when a step-up made now lasts. A sign-in that verified a TOTP or recovery code is one too: it
 * has just asked for the password and the code, which is all a step-up asks.
 */
export const stepUpUntil = (now = Date.now()) => new Date(now + STEP_UP_MINUTES * 60_000);
