import {
  accountGroups,
  accountGroupsUpdate,
  carGroups,
  carGroupsUpdate,
  groupAdd,
  groupCarsAdd,
  groupDelete,
  groupList,
  groupMessages,
  groupUpdate,
  type Capabilities,
} from '@fleet/contract';
import type { FastifyInstance } from 'fastify';
import type { Access } from '../access/access.js';
import { registerCall } from '../access/route.js';
import { writeAudit } from '../audit/audit.repository.js';
import type { Db } from '../db/database.js';
import type { AppContext } from '../http/context.js';
import { badRequest, conflict, forbidden, notFound } from '../http/errors.js';
import { sessionsChanged } from '../sessions/session-cache.js';
import {
  accountCompanyOf,
  accountGroupIds,
  addCarsToGroup,
  carForGroups,
  carGroupList,
  companyGroupIds,
  companyLiveCarIds,
  deleteGroup,
  findGroup,
  insertGroup,
  listGroups,
  nameTaken,
  renameGroup,
  replaceCarGroups,
  setAccountGroups,
} from './groups.repository.js';

const readers = (c: Capabilities) => c.seeCarsAndCustomers;
const editors = (c: Capabilities) => c.editCarsAndCustomers;
const companyMessages = { otherCompany: groupMessages.otherCompanyField, companyMissing: groupMessages.companyMissing };

/** A group-limited account works inside its groups; it does not change what groups are. */
const unlimited = (access: Access) => {
  if (access.groups !== null) throw forbidden(groupMessages.limitedAccount);
};

/** A group in the caller's reach (its company; a group-limited reader: its groups), or 404. */
async function visibleGroup(db: Db, access: Access, groupId: string) {
  const group = await findGroup(db, groupId, access.company);
  if (!group || (access.groups !== null && !access.groups.includes(groupId))) throw notFound(groupMessages.notFound);
  return group;
}

const duplicate = () => badRequest(groupMessages.duplicate, { name: groupMessages.duplicate });

/** Vehicle groups (docs/groups.md): the groups, a vehicle's groups, the bulk assignment, an account's limit. */
export function registerGroupRoutes(app: FastifyInstance, ctx: AppContext) {
  const { db } = ctx;

  registerCall(app, ctx, groupList, {
    auth: 'user',
    allow: readers,
    handler: async ({ body, access }) => ({
      list: await listGroups(db, access.companyFilter(body.company_id), access.groups),
    }),
  });

  registerCall(app, ctx, groupAdd, {
    auth: 'user',
    allow: editors,
    handler: async ({ body, access }) => {
      unlimited(access);
      const company = await access.companyFor(body.info.company_id ?? null, companyMessages);
      if (company === null)
        throw badRequest(groupMessages.companyRequired, { company_id: groupMessages.companyRequired });
      if (await nameTaken(db, company, body.info.name)) throw duplicate();
      const group_id = await insertGroup(db, company, body.info.name, new Date());
      await writeAudit(db, access, 'group.add', 'company', company, { group_id, name: body.info.name });
      return { ok: true, group_id };
    },
  });

  registerCall(app, ctx, groupUpdate, {
    auth: 'user',
    allow: editors,
    handler: async ({ body, access }) => {
      unlimited(access);
      const group = await visibleGroup(db, access, body.group_id);
      if (await nameTaken(db, group.company_id, body.info.name, group.group_id)) throw duplicate();
      await renameGroup(db, group.group_id, body.info.name, new Date());
      await writeAudit(db, access, 'group.update', 'company', group.company_id, {
        group_id: group.group_id,
        name: body.info.name,
      });
      return { ok: true };
    },
  });

  registerCall(app, ctx, groupDelete, {
    auth: 'user',
    allow: editors,
    handler: async ({ body, access }) => {
      unlimited(access);
      const group = await visibleGroup(db, access, body.group_id);
      const accounts = await db.transaction().execute((trx) => deleteGroup(trx, group.group_id));
      for (const accountId of accounts) await sessionsChanged(db, { accountId });
      await writeAudit(db, access, 'group.delete', 'company', group.company_id, {
        group_id: group.group_id,
        name: group.name,
      });
      return { ok: true };
    },
  });

  registerCall(app, ctx, carGroups, {
    auth: 'user',
    allow: readers,
    handler: async ({ body, access }) => {
      await access.see('car_id', body.car_id);
      return { groups: await carGroupList(db, body.car_id) };
    },
  });

  registerCall(app, ctx, carGroupsUpdate, {
    auth: 'user',
    allow: editors,
    handler: async ({ body, access }) => {
      unlimited(access);
      await access.see('car_id', body.car_id);
      const ids = [...new Set(body.group_ids)];
      await db.transaction().execute(async (trx) => {
        const car = await carForGroups(trx, body.car_id);
        if (!car) throw notFound();
        if (car.is_delete) throw conflict(groupMessages.carDeleted);
        const own = car.company_id === null ? new Set() : await companyGroupIds(trx, car.company_id, ids);
        // A group of another company is not one the vehicle can have: refused, nothing stored.
        if (own.size !== ids.length)
          throw badRequest(groupMessages.otherCompany, { group_ids: groupMessages.otherCompany });
        await replaceCarGroups(trx, car.car_id, ids);
      });
      await writeAudit(db, access, 'group.assign', 'car', body.car_id, { group_ids: ids });
      return { ok: true };
    },
  });

  registerCall(app, ctx, groupCarsAdd, {
    auth: 'user',
    allow: editors,
    handler: async ({ body, access }) => {
      unlimited(access);
      const group = await visibleGroup(db, access, body.group_id);
      const wanted = [...new Set(body.car_ids)];
      const count = await db.transaction().execute(async (trx) => {
        const cars = await companyLiveCarIds(trx, group.company_id, wanted);
        // A vehicle of another company, deleted or unknown: not found, and nothing stored.
        if (cars.length !== wanted.length) throw notFound();
        return addCarsToGroup(trx, group.group_id, cars);
      });
      await writeAudit(db, access, 'group.assign', 'company', group.company_id, {
        group_id: group.group_id,
        car_ids: wanted,
      });
      return { ok: true, count };
    },
  });

  registerCall(app, ctx, accountGroups, {
    auth: 'user',
    allow: (c) => c.manageAccounts,
    handler: async ({ body, access }) => {
      await access.see('account_id', body.account_id);
      return { group_ids: await accountGroupIds(db, body.account_id) };
    },
  });

  registerCall(app, ctx, accountGroupsUpdate, {
    auth: 'user',
    allow: (c) => c.manageAccounts,
    handler: async ({ body, access }) => {
      unlimited(access);
      await access.see('account_id', body.account_id);
      if (body.account_id === access.account_id) throw forbidden(groupMessages.selfLimit);
      const ids = body.group_ids === null ? null : [...new Set(body.group_ids)];
      await db.transaction().execute(async (trx) => {
        const account = await accountCompanyOf(trx, body.account_id);
        if (!account) throw notFound();
        if (ids !== null) {
          const own = account.company_id === null ? new Set() : await companyGroupIds(trx, account.company_id, ids);
          if (own.size !== ids.length)
            throw badRequest(groupMessages.otherCompany, { group_ids: groupMessages.otherCompany });
        }
        await setAccountGroups(trx, body.account_id, ids);
      });
      // The session carries the limit: every instance forgets it now (the trigger says so too).
      await sessionsChanged(db, { accountId: body.account_id });
      await writeAudit(db, access, 'group.limit', 'account', body.account_id, { group_ids: ids });
      return { ok: true };
    },
  });
}
