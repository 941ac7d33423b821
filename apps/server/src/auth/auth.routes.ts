import { checkToken, login, logout, me, sessionMessages, stepUp, sessionSelections } from '@fleet/contract';
import type { FastifyInstance } from 'fastify';
import { writeAudit } from '../audit/audit.repository.js';
import type { AppContext } from '../http/context.js';
import { tooManyRequests, unauthorized } from '../http/errors.js';
import { registerCall } from '../access/route.js';
import { findAccountSigningIn, updateAccount } from '../account/account.repository.js';
import { companyNameOf } from '../company/company.repository.js';
import { beginLoginAttempt, markLoginSucceeded } from '../credentials/login-limit.js';
import { hashPassword, needsRehash, verifyPassword } from '../credentials/password.js';
import { stepUpUntil, verifyStepUp } from './step-up.js';
import { checkSecondFactor, otpRefusal } from './totp.js';
import {
  createSession,
  findSession,
  markSteppedUp,
  revokeSession,
  selectionColumns,
  setSelection,
  type SelectionKey,
} from '../sessions/session.repository.js';
import { hashToken } from '../sessions/token.js';

export function registerAuthRoutes(app: FastifyInstance, ctx: AppContext) {
  const { db, config } = ctx;
  const life = { idleMinutes: config.SESSION_IDLE_MINUTES, maxHours: config.SESSION_MAX_HOURS };

  registerCall(app, ctx, login, {
    auth: 'public',
    handler: async ({ body, request }) => {
      const username = body.username.toLowerCase();
      const attempt = await beginLoginAttempt(db, request.ip, username);
      if (attempt === undefined) throw tooManyRequests(sessionMessages.tooManyAttempts);
      const account = await findAccountSigningIn(db, body.username);
      const ok = await verifyPassword(body.password, account?.password_hash);
      if (!account || !ok) throw unauthorized(sessionMessages.loginFailed);
      const second = await checkSecondFactor(db, account.account_id, body, 'login');
      // The password was right: asking for the code is not a failure; a refused code is.
      if (second.result === 'missing') await markLoginSucceeded(db, attempt);
      if (second.result !== 'off' && second.result !== 'ok') throw otpRefusal(second);
      await markLoginSucceeded(db, attempt);
      if (needsRehash(account.password_hash, config.passwordHashLog2N)) {
        const rehashed = await hashPassword(body.password, config.passwordHashLog2N);
        await updateAccount(db, account.account_id, { password_hash: rehashed });
      }
      // The password and a code were just given: the session counts as stepped up (that session only).
      const steppedUpUntil = second.result === 'ok' ? stepUpUntil() : null;
      const token = await createSession(db, account.account_id, life, steppedUpUntil);
      if (steppedUpUntil)
        await writeAudit(db, { account_id: account.account_id }, 'session.step_up', 'account', account.account_id, {
          until: steppedUpUntil.toISOString(),
          with: 'login',
        });
      return {
        id: account.account_id,
        username: account.name,
        role: account.role,
        token,
        company_id: account.company_id,
      };
    },
  });

  registerCall(app, ctx, logout, {
    auth: 'user',
    duringTotpSetup: true,
    handler: async ({ access }) => {
      await revokeSession(db, access.session.token_hash);
      return { ok: true };
    },
  });

  registerCall(app, ctx, checkToken, {
    auth: 'public',
    handler: async ({ body }) => {
      const session = await findSession(db, hashToken(body.token), life);
      return { ok: !!session && session.account_id === body.account_id };
    },
  });

  registerCall(app, ctx, me, {
    auth: 'user',
    duringTotpSetup: true,
    handler: async ({ access }) => {
      const companyName = access.company_id ? await companyNameOf(db, access.company_id) : undefined;
      const s = access.session;
      const selection = Object.fromEntries(Object.entries(selectionColumns).map(([key, column]) => [key, s[column]]));
      const steppedUp =
        access.stepped_up_until !== null && access.stepped_up_until.getTime() > Date.now()
          ? access.stepped_up_until
          : null;
      return {
        account_id: access.account_id,
        name: access.name,
        role: access.role,
        company_id: access.company_id,
        company_name: companyName ?? null,
        engine_control: access.engine_control,
        stepped_up_until: steppedUp?.toISOString() ?? null,
        selection,
        groups_limited: access.groups !== null,
      };
    },
  });

  registerCall(app, ctx, stepUp, {
    auth: 'user',
    handler: async ({ body, access, request }) => {
      const until = await verifyStepUp(db, access, body, request.ip);
      await markSteppedUp(db, access.session.token_hash, until);
      await writeAudit(db, access, 'session.step_up', 'account', access.account_id, { until: until.toISOString() });
      return { ok: true, stepped_up_until: until.toISOString() };
    },
  });

  for (const [key, call] of Object.entries(sessionSelections) as [
    SelectionKey,
    (typeof sessionSelections)[SelectionKey],
  ][]) {
    registerCall(app, ctx, call, {
      auth: 'user',
      handler: async ({ body, access }) => {
        const id = (body as Record<string, string>)[key]!;
        await access.see(key, id);
        await setSelection(db, access.session.token_hash, key, id);
        return { ok: true };
      },
    });
  }
}
