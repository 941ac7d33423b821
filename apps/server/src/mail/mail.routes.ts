import { mailOutboxList } from '@fleet/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../http/context.js';
import { registerCall } from '../access/route.js';
import { listOutbox } from './outbox.repository.js';

/** The outbox screen: every mail the server sent or still has to send. Super admin only. */
export function registerMailRoutes(app: FastifyInstance, ctx: AppContext) {
  registerCall(app, ctx, mailOutboxList, {
    auth: 'user',
    allow: (caps) => caps.superAdmin,
    handler: ({ body }) => listOutbox(ctx.db, body),
  });
}
