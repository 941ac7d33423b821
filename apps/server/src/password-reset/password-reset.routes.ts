import { PASSWORD_RESET_TOKEN_MINUTES, passwordResetByToken, passwordResetMessages as msg, resetPasswordEmail } from '@fleet/contract';
import type { FastifyInstance } from 'fastify';
import { hashPassword } from '../auth/password.js';
import { revokeAccountSessions } from '../sessions/session.repository.js';
import { hashToken, newToken } from '../sessions/token.js';
import type { AppContext } from '../http/context.js';
import { badRequest, tooManyRequests } from '../http/errors.js';
import { registerCall } from '../access/route.js';
import { enqueueMail } from '../mail/outbox.repository.js';
import { composePasswordChangedMail, composeResetMail, resetLink } from './password-reset-mail.js';
import {
  accountName,
  consumeResetToken,
  countRecentRequests,
  createResetToken,
  findAccountByEmail,
  lockRequestCounters,
  recordRequest,
  RESET_LIMITS,
  retireAccountTokens,
  setAccountPassword,
  tokenStatus,
} from './password-reset.repository.js';

const problemMessages = { invalid: msg.tokenInvalid, used: msg.tokenUsed, expired: msg.tokenExpired } as const;

/** Password reset by mail: request a link (SPEC.md §7 resetpassword_email), then set a password with it. */
export function registerPasswordResetRoutes(app: FastifyInstance, ctx: AppContext) {
  const { db, config } = ctx;

  // The same answer whether the address is registered or not, and whether a mail went out.
  registerCall(app, ctx, resetPasswordEmail, {
    auth: 'public',
    handler: async ({ body, request }) => {
      const email = body.email.toLowerCase();
      await db.transaction().execute(async (trx) => {
        await lockRequestCounters(trx, email, request.ip);
        const recent = await countRecentRequests(trx, email, request.ip);
        if (recent.byIp >= RESET_LIMITS.requestsPerIpPerHour) throw tooManyRequests(msg.tooMany);
        await recordRequest(trx, email, request.ip);
        if (recent.byEmail >= RESET_LIMITS.mailsPerEmailPerHour) return;
        const account = await findAccountByEmail(trx, email);
        if (!account) return;
        const token = newToken();
        const expiresAt = await createResetToken(trx, account.account_id, hashToken(token), PASSWORD_RESET_TOKEN_MINUTES);
        const mail = composeResetMail(account, resetLink(config.publicUrl, token), expiresAt);
        await enqueueMail(trx, { to: account.email, ...mail, kind: 'password_reset' }, new Date());
      });
      return { ok: true };
    },
  });

  registerCall(app, ctx, passwordResetByToken, {
    auth: 'public',
    handler: async ({ body }) => {
      const tokenHash = hashToken(body.token);
      const refuse = async () => {
        const status = await tokenStatus(db, tokenHash);
        const message = problemMessages[status === 'live' ? 'invalid' : status];
        return badRequest(message, { token: message });
      };
      // Hashing takes ~0.6 s: not for links that are dead anyway.
      if ((await tokenStatus(db, tokenHash)) !== 'live') throw await refuse();
      const passwordHash = await hashPassword(body.password);
      const accountId = await db.transaction().execute(async (trx) => {
        const id = await consumeResetToken(trx, tokenHash);
        if (!id) return undefined;
        await setAccountPassword(trx, id, passwordHash);
        await retireAccountTokens(trx, id);
        await revokeAccountSessions(trx, id);
        const account = await accountName(trx, id);
        const mail = composePasswordChangedMail(account, new Date(), config.publicUrl);
        await enqueueMail(trx, { to: account.email, ...mail, kind: 'password_changed' }, new Date());
        await trx
          .insertInto('audit_log')
          .values({ account_id: id, action: 'password_reset_by_token', target_type: 'account', target_id: id, detail: '{}' })
          .execute();
        return id;
      });
      if (!accountId) throw await refuse();
      return { ok: true };
    },
  });
}
