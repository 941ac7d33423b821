import { auditLogList } from '@fleet/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../http/context.js';
import { registerCall } from '../access/route.js';
import { listAudit } from './audit.repository.js';

/** The audit log screen's call: the super admin's alone. */
export function registerAuditRoutes(app: FastifyInstance, ctx: AppContext) {
  registerCall(app, ctx, auditLogList, {
    auth: 'user',
    allow: (caps) => caps.superAdmin,
    handler: ({ body }) => listAudit(ctx.db, body),
  });
}
