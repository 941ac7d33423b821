import { PASSWORD_RESET_TOKEN_MINUTES, passwordResetMessages as msg, resetPasswordEmail } from '@fleet/contract';
import type { FastifyInstance } from 'fastify';
import { hashToken, newToken } from '../sessions/token.js';
import type { AppContext } from '../http/context.js';
import { tooManyRequests } from '../http/errors.js';
import { registerCall } from '../access/route.js';
import { enqueueMail } from '../mail/outbox.repository.js';
import { composeResetMail, resetLink } from './password-reset-mail.js';
import {
  countRecentRequests,
  createResetToken,
  findAccountByEmail,
  lockRequestCounters,
  recordRequest,
  RESET_LIMITS,
} from './password-reset.repository.js';

/**
 * Password reset by mail: request a link (docs/product.md §7 resetpassword_email). Setting a password with it
 * is the account module's (account/password-by-token.routes.ts): one module writes accounts.
 */
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
        const expiresAt = await createResetToken(
          trx,
          account.account_id,
          hashToken(token),
          PASSWORD_RESET_TOKEN_MINUTES,
        );
        const mail = composeResetMail(account, resetLink(config.publicUrl, token), expiresAt);
        await enqueueMail(trx, { to: account.email, ...mail, kind: 'password_reset' }, new Date());
      });
      return { ok: true };
    },
  });
}
