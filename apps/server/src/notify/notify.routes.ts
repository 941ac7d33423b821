import {
  accountNotify,
  accountNotifyUpdate,
  notifyHistoryList,
  notifyHistoryListCount,
  notifyMessages,
} from '@fleet/contract';
import type { FastifyInstance } from 'fastify';
import type { Access } from '../access/access.js';
import type { AppContext } from '../http/context.js';
import { forbidden } from '../http/errors.js';
import { registerCall } from '../access/route.js';
import { countHistory, listHistory, type HistoryScope } from './history.repository.js';
import { registerGroupNotifyRoutes } from './group-notify.routes.js';
import { getNotifySettings, saveNotifySettings } from './settings.repository.js';

/**
 * docs/product.md §7 account_notify / account_notify_update. Everyone reads and
 * changes their own settings only (docs/product.md §6: "own notification settings").
 */
export function registerNotifyRoutes(app: FastifyInstance, ctx: AppContext) {
  const ownOnly = (actorId: string, accountId: string) => {
    if (actorId !== accountId) throw forbidden(notifyMessages.ownOnly);
  };

  registerCall(app, ctx, accountNotify, {
    auth: 'user',
    handler: async ({ body, access }) => {
      ownOnly(access.account_id, body.account_id);
      return { notify: await getNotifySettings(ctx.db, access.account_id) };
    },
  });

  registerCall(app, ctx, accountNotifyUpdate, {
    auth: 'user',
    handler: async ({ body, access }) => {
      ownOnly(access.account_id, body.account_id);
      await saveNotifySettings(ctx.db, access.account_id, body.info);
      return { ok: true };
    },
  });

  /** Administrators and managers, their company's recipients (the super admin: all); webhooks for administrators. */
  const scopeOf = (access: Access): HistoryScope => ({
    company: access.company,
    withWebhooks: access.caps.manageWebhooks,
  });

  registerCall(app, ctx, notifyHistoryListCount, {
    auth: 'user',
    allow: (caps) => caps.notifyHistory,
    handler: async ({ body, access }) => ({ count: await countHistory(ctx.db, scopeOf(access), body) }),
  });

  registerCall(app, ctx, notifyHistoryList, {
    auth: 'user',
    allow: (caps) => caps.notifyHistory,
    handler: async ({ body, access }) => ({ list: await listHistory(ctx.db, scopeOf(access), body) }),
  });

  registerGroupNotifyRoutes(app, ctx);
}
