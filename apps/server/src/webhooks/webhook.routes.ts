import {
  webhookAdd,
  webhookDelete,
  webhookDeliveryList,
  webhookList,
  webhookMessages,
  webhookUpdate,
} from '@fleet/contract';
import type { FastifyInstance } from 'fastify';
import type { Access } from '../access/access.js';
import { registerCall } from '../access/route.js';
import type { AppContext } from '../http/context.js';
import { badRequest, notFound } from '../http/errors.js';
import { newWebhookSecret } from './webhook-signature.js';
import { deleteWebhook, insertWebhook, listDeliveries, listWebhooks, updateWebhook } from './webhook.repository.js';
import { namesInternalTarget } from './webhook-target.js';

/** Administrators: a company admin for the company, the super admin for every company. */
const adminsOnly = (access: Access) => access.require((caps) => caps.manageWebhooks, webhookMessages.companyAdminsOnly);

/**
 * A URL that names this machine or an internal network by itself is refused when saved, unless
 * WEBHOOK_ALLOW_PRIVATE; a name is judged again, by its addresses, at every call (webhook-dispatcher.ts).
 */
const checkTarget = (ctx: AppContext, url: string) => {
  if (!ctx.config.WEBHOOK_ALLOW_PRIVATE && namesInternalTarget(url))
    throw badRequest(undefined, { url: webhookMessages.privateTarget });
};

/**
 * Webhooks (docs/notifications.md "Webhooks"). A company admin's receivers hear their company's events;
 * the super admin's hear every company's, and the super admin sees and edits every receiver. Another
 * company's receiver is "not found".
 */
export function registerWebhookRoutes(app: FastifyInstance, ctx: AppContext) {
  registerCall(app, ctx, webhookList, {
    auth: 'user',
    handler: ({ access }) => {
      adminsOnly(access);
      return listWebhooks(ctx.db, access.company);
    },
  });

  registerCall(app, ctx, webhookAdd, {
    auth: 'user',
    handler: async ({ body, access }) => {
      adminsOnly(access);
      checkTarget(ctx, body.url);
      const secret = body.secret || newWebhookSecret();
      const webhook = await insertWebhook(ctx.db, access.company, { ...body, secret }, new Date());
      return { webhook, secret };
    },
  });

  registerCall(app, ctx, webhookUpdate, {
    auth: 'user',
    handler: async ({ body: { id, ...w }, access }) => {
      adminsOnly(access);
      checkTarget(ctx, w.url);
      if (!(await updateWebhook(ctx.db, access.company, id, w, new Date()))) throw notFound(webhookMessages.notFound);
      return { ok: true };
    },
  });

  registerCall(app, ctx, webhookDelete, {
    auth: 'user',
    handler: async ({ body, access }) => {
      adminsOnly(access);
      if (!(await deleteWebhook(ctx.db, access.company, body.id))) throw notFound(webhookMessages.notFound);
      return { ok: true };
    },
  });

  registerCall(app, ctx, webhookDeliveryList, {
    auth: 'user',
    handler: ({ body, access }) => {
      adminsOnly(access);
      return listDeliveries(ctx.db, access.company, body);
    },
  });
}
