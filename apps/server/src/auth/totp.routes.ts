import {
  companyTotpPolicy,
  companyTotpPolicyUpdate,
  sessionMessages,
  totpDisable,
  totpEnable,
  totpMessages,
  totpRecoveryCodes,
  totpSetup,
  totpStatus,
  isAdministrator,
} from '@fleet/contract';
import type { FastifyInstance } from 'fastify';
import { writeAudit } from '../audit/audit.repository.js';
import type { AppContext } from '../http/context.js';
import { AppError, badRequest, conflict, forbidden, notFound, tooManyRequests } from '../http/errors.js';
import type { Access } from '../access/access.js';
import { registerCall } from '../access/route.js';
import { findPasswordHash } from '../account/account.repository.js';
import { setCompanyTotpPolicy } from '../company/company.repository.js';
import { beginLoginAttempt, markLoginSucceeded } from '../credentials/login-limit.js';
import { verifyPassword } from '../credentials/password.js';
import { sessionsChanged } from '../sessions/session-cache.js';
import { checkSecondFactor, newRecoveryCodes, newTotpSecret, otpRefusal, otpauthUrl, stepOfCode } from './totp.js';
import {
  companyRequiresTotp,
  countRecoveryCodesLeft,
  deleteTotp,
  enablePendingSecret,
  findCompanyTotpPolicy,
  findTotp,
  replaceRecoveryCodes,
  savePendingSecret,
} from './totp.repository.js';

/**
 * 二段階認証 of the signed-in account (docs/decisions.md "TOTP sign-in"). Every call acts on the
 * caller's own account only. Codes and passwords checked here count against the login limits of the
 * account, like a sign-in. Status, setup and enable stay open to a session that must set TOTP up
 * before anything else (its company requires it). Enabling answers the ten recovery codes, once; new
 * ones replace them with the password and a code.
 */
export function registerTotpRoutes(app: FastifyInstance, ctx: AppContext) {
  const { db } = ctx;

  /** A limited try on the caller's account: the attempt id, or 429. */
  const attempt = async (access: Access, ip: string) => {
    const id = await beginLoginAttempt(db, ip, access.account_id);
    if (id === undefined) throw tooManyRequests(sessionMessages.tooManyAttempts);
    return id;
  };

  registerCall(app, ctx, totpStatus, {
    auth: 'user',
    duringTotpSetup: true,
    handler: async ({ access }) => ({
      enabled: !!(await findTotp(db, access.account_id))?.secret,
      required: await companyRequiresTotp(db, access.company_id),
      recovery_codes_left: await countRecoveryCodesLeft(db, access.account_id),
    }),
  });

  registerCall(app, ctx, totpSetup, {
    auth: 'user',
    duringTotpSetup: true,
    handler: async ({ access }) => {
      if ((await findTotp(db, access.account_id))?.secret) throw conflict(totpMessages.alreadyEnabled);
      const secret = newTotpSecret();
      await savePendingSecret(db, access.account_id, secret);
      return { secret, otpauth_url: otpauthUrl(secret, access.account_id) };
    },
  });

  registerCall(app, ctx, totpEnable, {
    auth: 'user',
    duringTotpSetup: true,
    handler: async ({ body, access, request }) => {
      const totp = await findTotp(db, access.account_id);
      if (totp?.secret) throw conflict(totpMessages.alreadyEnabled);
      if (!totp?.pending_secret) throw badRequest(totpMessages.notPending);
      const tried = await attempt(access, request.ip);
      const step = stepOfCode(totp.pending_secret, body.otp);
      if (step === undefined) throw badRequest(totpMessages.otpWrong, { otp: totpMessages.otpWrong });
      await markLoginSucceeded(db, tried);
      const recovery = newRecoveryCodes();
      await db.transaction().execute(async (trx) => {
        if (!(await enablePendingSecret(trx, access.account_id, step))) throw conflict(totpMessages.alreadyEnabled);
        await replaceRecoveryCodes(trx, access.account_id, recovery.hashes);
        await writeAudit(trx, access, 'account.totp_enable', 'account', access.account_id);
      });
      // Out of the setup: its sessions may now make every call.
      await sessionsChanged(db, { accountId: access.account_id });
      return { ok: true, recovery_codes: recovery.codes };
    },
  });

  /**
   * The password and a code (or a recovery code) of the caller's own account, as a limited try:
   * 401 with the field's error, 400 when the account has no TOTP.
   */
  const passwordAndCode = async (
    access: Access,
    ip: string,
    body: { password: string; otp?: string | undefined; recovery_code?: string | undefined },
    call: string,
  ) => {
    const tried = await attempt(access, ip);
    if (!(await verifyPassword(body.password, await findPasswordHash(db, access.account_id))))
      throw new AppError(401, 'UNAUTHORIZED', totpMessages.passwordWrong, { password: totpMessages.passwordWrong });
    const second = await checkSecondFactor(db, access.account_id, body, call);
    if (second.result === 'off') throw badRequest(totpMessages.notEnabled);
    if (second.result !== 'ok') throw otpRefusal(second);
    await markLoginSucceeded(db, tried);
  };

  registerCall(app, ctx, totpDisable, {
    auth: 'user',
    handler: async ({ body, access, request }) => {
      if (await companyRequiresTotp(db, access.company_id)) throw forbidden(totpMessages.requiredByCompany);
      await passwordAndCode(access, request.ip, body, 'totp_disable');
      await deleteTotp(db, access.account_id);
      await sessionsChanged(db, { accountId: access.account_id });
      await writeAudit(db, access, 'account.totp_disable', 'account', access.account_id);
      return { ok: true };
    },
  });

  registerCall(app, ctx, totpRecoveryCodes, {
    auth: 'user',
    handler: async ({ body, access, request }) => {
      await passwordAndCode(access, request.ip, body, 'totp_recovery_codes');
      const recovery = newRecoveryCodes();
      await db.transaction().execute(async (trx) => {
        await replaceRecoveryCodes(trx, access.account_id, recovery.hashes);
        await writeAudit(trx, access, 'account.totp_recovery_codes', 'account', access.account_id);
      });
      return { ok: true, recovery_codes: recovery.codes };
    },
  });

  /** A company's policy: its own company admin, or the super admin; another company is "not found". */
  const policyOf = async (access: Access, companyId: string) => {
    if (!isAdministrator(access)) throw forbidden();
    if (access.company_id !== null && access.company_id !== companyId) throw notFound();
    const policy = await findCompanyTotpPolicy(db, companyId);
    if (!policy) throw notFound();
    return policy;
  };

  registerCall(app, ctx, companyTotpPolicy, {
    auth: 'user',
    handler: async ({ body, access }) => policyOf(access, body.company_id),
  });

  registerCall(app, ctx, companyTotpPolicyUpdate, {
    auth: 'user',
    handler: async ({ body, access }) => {
      await policyOf(access, body.company_id);
      // A company admin turning it on would lock themselves into the setup: they set theirs up first.
      if (body.require_totp && access.company_id !== null && !(await findTotp(db, access.account_id))?.secret)
        throw badRequest(totpMessages.ownTotpFirst, { require_totp: totpMessages.ownTotpFirst });
      await setCompanyTotpPolicy(db, body.company_id, body.require_totp);
      // Its accounts without TOTP are held to the setup (or let go) at their next call, on every instance.
      await sessionsChanged(db, 'all');
      await writeAudit(db, access, 'company.totp_policy', 'company', body.company_id, {
        require_totp: body.require_totp,
      });
      return { ok: true };
    },
  });
}
