import { companyTerminalPolicy, companyTerminalPolicyUpdate } from '@fleet/contract';
import type { FastifyInstance } from 'fastify';
import type { Access } from '../access/access.js';
import { registerCall } from '../access/route.js';
import { writeAudit } from '../audit/audit.repository.js';
import type { AppContext } from '../http/context.js';
import { notFound } from '../http/errors.js';
import { findTerminalPolicy, setTerminalPolicy } from './company.repository.js';

/**
 * A company's terminal-identity settings (docs/security.md "Terminal identity"): whether a TCP
 * terminal's login from a source address it has not used before raises an alert. Its own company
 * admins and the super admin; another company is "not found".
 */
export function registerTerminalPolicyRoutes(app: FastifyInstance, ctx: AppContext) {
  const { db } = ctx;
  const policyOf = async (access: Access, companyId: string) => {
    if (access.company !== null && access.company !== companyId) throw notFound();
    const policy = await findTerminalPolicy(db, companyId);
    if (!policy) throw notFound();
    return policy;
  };

  registerCall(app, ctx, companyTerminalPolicy, {
    auth: 'user',
    allow: (c) => c.terminalIdentity,
    handler: async ({ body, access }) => policyOf(access, body.company_id),
  });

  registerCall(app, ctx, companyTerminalPolicyUpdate, {
    auth: 'user',
    allow: (c) => c.terminalIdentity,
    handler: async ({ body, access }) => {
      await policyOf(access, body.company_id);
      await db.transaction().execute(async (trx) => {
        await setTerminalPolicy(trx, body.company_id, body.alert_new_terminal_address);
        await writeAudit(trx, access, 'company.terminal_policy', 'company', body.company_id, {
          alert_new_terminal_address: body.alert_new_terminal_address,
        });
      });
      return { ok: true };
    },
  });
}
