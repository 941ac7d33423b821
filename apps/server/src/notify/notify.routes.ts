import { accountNotify, accountNotifyUpdate, notifyMessages } from '@fleet/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../http/context.js';
import { forbidden } from '../http/errors.js';
import { registerCall } from '../access/route.js';
import { registerMailRoutes } from '../mail/mail.routes.js';
import { registerPasswordResetRoutes } from '../password-reset/password-reset.routes.js';
import { getNotifySettings, saveNotifySettings } from './settings.repository.js';

/**
 * SPEC.md §7 account_notify / account_notify_update. Everyone reads and
 * changes their own settings only (ARCHITECTURE.md: "own notification settings").
 */
export function registerNotifyRoutes(app: FastifyInstance, ctx: AppContext) {
  const ownOnly = (actorId: string, accountId: string) => {
    if (actorId !== accountId) throw forbidden(notifyMessages.ownOnly);
  };

  registerCall(app, ctx, accountNotify, {
    auth: 'user',
    handler: async ({ body, actor }) => {
      ownOnly(actor.account_id, body.account_id);
      return { notify: await getNotifySettings(ctx.db, actor.account_id) };
    },
  });

  registerCall(app, ctx, accountNotifyUpdate, {
    auth: 'user',
    handler: async ({ body, actor }) => {
      ownOnly(actor.account_id, body.account_id);
      await saveNotifySettings(ctx.db, actor.account_id, body.info);
      return { ok: true };
    },
  });
}

/** Everything about mail in one registration: settings, the outbox screen, password reset. */
export function registerNotificationRoutes(app: FastifyInstance, ctx: AppContext) {
  registerNotifyRoutes(app, ctx);
  registerMailRoutes(app, ctx);
  registerPasswordResetRoutes(app, ctx);
}
