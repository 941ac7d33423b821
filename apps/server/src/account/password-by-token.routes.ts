import { passwordResetByToken, passwordResetMessages as msg } from '@fleet/contract';
import type { FastifyInstance } from 'fastify';
import { registerCall } from '../access/route.js';
import { writeAudit } from '../audit/audit.repository.js';
import { hashPassword } from '../credentials/password.js';
import type { AppContext } from '../http/context.js';
import { badRequest } from '../http/errors.js';
import { enqueueMail } from '../mail/outbox.repository.js';
import { composePasswordChangedMail } from '../password-reset/password-reset-mail.js';
import { accountName, consumeResetToken, tokenStatus } from '../password-reset/password-reset.repository.js';
import { sessionsChanged } from '../sessions/session-cache.js';
import { hashToken } from '../sessions/token.js';
import { updateAccount } from './account.repository.js';
import { endOldCredentials } from './account.service.js';

const problemMessages = { invalid: msg.tokenInvalid, used: msg.tokenUsed, expired: msg.tokenExpired } as const;

/** A new password set with a reset link (docs/product.md §7 password_reset_by_token); the link is used up. */
export function registerPasswordByTokenRoute(app: FastifyInstance, ctx: AppContext) {
  const { db, config } = ctx;
  registerCall(app, ctx, passwordResetByToken, {
    auth: 'public',
    handler: async ({ body }) => {
      const tokenHash = hashToken(body.token);
      const refuse = async () => {
        const status = await tokenStatus(db, tokenHash);
        const message = problemMessages[status === 'live' ? 'invalid' : status];
        return badRequest(message, { token: message });
      };
      // Hashing is slow on purpose (scrypt): not for links that are dead anyway.
      if ((await tokenStatus(db, tokenHash)) !== 'live') throw await refuse();
      const passwordHash = await hashPassword(body.password, config.passwordHashLog2N);
      const accountId = await db.transaction().execute(async (trx) => {
        const id = await consumeResetToken(trx, tokenHash);
        if (!id) return undefined;
        await updateAccount(trx, id, { password_hash: passwordHash });
        await endOldCredentials(trx, id, null);
        const account = await accountName(trx, id);
        const mail = composePasswordChangedMail(account, new Date(), config.publicUrl);
        await enqueueMail(trx, { to: account.email, ...mail, kind: 'password_changed' }, new Date());
        await writeAudit(trx, { account_id: id }, 'password_reset_by_token', 'account', id);
        return id;
      });
      if (!accountId) throw await refuse();
      await sessionsChanged(db, { accountId });
      return { ok: true };
    },
  });
}
