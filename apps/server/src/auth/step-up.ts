import { STEP_UP_MINUTES, engineMessages, sessionMessages } from '@fleet/contract';
import type { Db } from '../db/database.js';
import type { AuthedActor } from '../http/context.js';
import { AppError, tooManyRequests } from '../http/errors.js';
import { beginLoginAttempt, markLoginSucceeded } from '../credentials/login-limit.js';
import { verifyPassword } from '../credentials/password.js';
import { checkSecondFactor, otpRefusal } from './totp.js';

/**
 * The step-up before a prohibit (docs/engine-control.md): the account's password again. Each try
 * counts against the account's and the address's login limits (keyed on the account id, whatever
 * name the session signed in with), so a stolen session cannot guess the password faster than a
 * login could. Accounts with TOTP give the code too (401 OTP_REQUIRED without it). Returns until when
 * the session is elevated; a wrong password or code is 401 with a field error.
 */
export async function verifyStepUp(
  db: Db,
  actor: AuthedActor,
  input: { password: string; otp?: string | undefined },
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
  const second = await checkSecondFactor(db, actor.account_id, input.otp);
  // The password was right: only a wrong code counts as a failed try.
  if (second === 'missing') await markLoginSucceeded(db, attempt);
  if (second === 'missing' || second === 'wrong') throw otpRefusal(second);
  await markLoginSucceeded(db, attempt);
  return new Date(Date.now() + STEP_UP_MINUTES * 60_000);
}
