import { companyTerminalPolicy, companyTerminalPolicyUpdate } from '@fleet/contract';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { Access } from '../access/access.js';
import { registerCall } from '../access/route.js';
import { writeAudit } from '../audit/audit.repository.js';
import type { Db } from '../db/database.js';
import type { AppContext } from '../http/context.js';
import { notFound } from '../http/errors.js';

const findPolicy = (db: Db, companyId: string) =>
  db
    .selectFrom('companies')
    .select(['company_id', 'alert_new_terminal_address'])
    .where('company_id', '=', companyId)
    .where('is_delete', '=', false)
    .executeTakeFirst();

/**
 * A company's terminal-identity settings (docs/security.md "Terminal identity"): whether a TCP
 * terminal's login from a source address it has not used before raises an alert. Its own company
 * admins and the super admin; another company is "not found".
 */
export function registerTerminalPolicyRoutes(app: FastifyInstance, ctx: AppContext) {
  const { db } = ctx;
  const policyOf = async (access: Access, companyId: string) => {
    if (access.company !== null && access.company !== companyId) throw notFound();
    const policy = await findPolicy(db, companyId);
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
      await db
        .updateTable('companies')
        .set({ alert_new_terminal_address: body.alert_new_terminal_address, updated_at: sql`now()` })
        .where('company_id', '=', body.company_id)
        .execute();
      await writeAudit(db, access, 'company.terminal_policy', 'company', body.company_id, {
        alert_new_terminal_address: body.alert_new_terminal_address,
      });
      return { ok: true };
    },
  });
}
