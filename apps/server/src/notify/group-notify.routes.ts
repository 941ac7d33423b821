import { groupMessages, groupNotify, groupNotifyMessages, groupNotifyUpdate, type Capabilities } from '@fleet/contract';
import type { FastifyInstance } from 'fastify';
import type { Access } from '../access/access.js';
import { registerCall } from '../access/route.js';
import type { AppContext } from '../http/context.js';
import { badRequest, notFound } from '../http/errors.js';
import { findGroup } from '../groups/groups.repository.js';
import { getGroupNotify, groupCandidates, saveGroupNotify } from './group-settings.repository.js';

/** Managers and administrators set a group's notifications (docs/notifications.md "Group settings"). */
const editors = (c: Capabilities) => c.editCarsAndCustomers;

/**
 * A vehicle group's notification settings: which items its vehicles' alerts go out for, and to which of
 * the company's accounts. A group outside the caller's reach (another company's; for a group-limited
 * manager, a group not his) is not found.
 */
export function registerGroupNotifyRoutes(app: FastifyInstance, ctx: AppContext) {
  const { db } = ctx;

  const groupInReach = async (access: Access, groupId: string) => {
    const group = await findGroup(db, groupId, access.company);
    if (!group || (access.groups !== null && !access.groups.includes(groupId))) throw notFound(groupMessages.notFound);
    return group;
  };

  registerCall(app, ctx, groupNotify, {
    auth: 'user',
    allow: editors,
    handler: async ({ body, access }) => {
      const group = await groupInReach(access, body.group_id);
      return {
        group_id: group.group_id,
        name: group.name,
        notify: await getGroupNotify(db, group.group_id),
        candidates: await groupCandidates(db, group.group_id, group.company_id),
      };
    },
  });

  registerCall(app, ctx, groupNotifyUpdate, {
    auth: 'user',
    allow: editors,
    handler: async ({ body, access }) => {
      const group = await groupInReach(access, body.group_id);
      const allowed = new Set((await groupCandidates(db, group.group_id, group.company_id)).map((a) => a.account_id));
      const refused = body.info.account_ids.findIndex((id) => !allowed.has(id));
      if (refused >= 0)
        throw badRequest(groupNotifyMessages.recipientNotAllowed, {
          [`info.account_ids.${refused}`]: groupNotifyMessages.recipientNotAllowed,
        });
      await db.transaction().execute((trx) => saveGroupNotify(trx, group.group_id, body.info, new Date()));
      return { ok: true };
    },
  });
}
