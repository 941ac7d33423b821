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
  groupZones,
  groupZonesUpdate,
  zoneMessages,
  type Call,
  type CallResult,
  type Capabilities,
} from '@fleet/contract';
import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import type { Access } from '../access/access.js';
import { registerCall } from '../access/route.js';
import { writeAudit } from '../audit/audit.repository.js';
import type { Db } from '../db/database.js';
import type { AppContext } from '../http/context.js';
import { badRequest, conflict, forbidden, notFound } from '../http/errors.js';
import { sessionsChanged } from '../sessions/session-cache.js';
import { assignmentsChanged, companyZoneIds, groupZoneList, replaceGroupZones } from '../zones/zones.repository.js';
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

type FoundGroup = NonNullable<Awaited<ReturnType<typeof findGroup>>>;

/** A group in the caller's reach (its company; a group-limited reader: its groups), or 404. */
async function visibleGroup(db: Db, access: Access, groupId: string): Promise<FoundGroup> {
  const group = await findGroup(db, groupId, access.company);
  if (!group || (access.groups !== null && !access.groups.includes(groupId))) throw notFound(groupMessages.notFound);
  return group;
}

/** Groups named for a vehicle or an account must be its company's: another's is refused (400), nothing stored. */
async function ownGroups(db: Db, company: string | null, ids: readonly string[]) {
  const own = company === null ? new Set() : await companyGroupIds(db, company, ids);
  if (own.size !== ids.length) throw badRequest(groupMessages.otherCompany, { group_ids: groupMessages.otherCompany });
}

const duplicate = () => badRequest(groupMessages.duplicate, { name: groupMessages.duplicate });

/** What a change to one group does in its transaction, and what its audit row says. */
interface GroupChange<C extends Call> {
  result: CallResult<C>;
  detail: Record<string, unknown>;
  /** Accounts whose sessions carry the group (they are told at once). */
  accounts?: readonly string[];
}

/** Vehicle groups (docs/groups.md): the groups, a vehicle's groups, the bulk assignment, an account's limit. */
export function registerGroupRoutes(app: FastifyInstance, ctx: AppContext) {
  const { db } = ctx;

  /**
   * A change to one named group by an unlimited editor: the group in reach (else 404), the change in one
   * transaction, the sessions told, one audit row on the group's company.
   */
  const groupCall = <C extends Call>(
    call: C,
    action: string,
    change: (trx: Db, group: FoundGroup, body: z.output<C['request']>) => Promise<GroupChange<C>>,
  ) =>
    registerCall(app, ctx, call, {
      auth: 'user',
      allow: editors,
      handler: async ({ body, access }) => {
        unlimited(access);
        const group = await visibleGroup(db, access, (body as { group_id: string }).group_id);
        const done = await db.transaction().execute((trx) => change(trx, group, body));
        for (const accountId of done.accounts ?? []) await sessionsChanged(db, { accountId });
        await writeAudit(db, access, action, 'company', group.company_id, { group_id: group.group_id, ...done.detail });
        return done.result;
      },
    });

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

  groupCall(groupUpdate, 'group.update', async (trx, group, body) => {
    if (await nameTaken(trx, group.company_id, body.info.name, group.group_id)) throw duplicate();
    await renameGroup(trx, group.group_id, body.info.name, new Date());
    return { result: { ok: true }, detail: { name: body.info.name } };
  });

  groupCall(groupDelete, 'group.delete', async (trx, group) => {
    const accounts = await deleteGroup(trx, group.group_id);
    // Its vehicles lose the group's zones.
    await assignmentsChanged(trx, group.company_id);
    return { result: { ok: true }, detail: { name: group.name }, accounts };
  });

  groupCall(groupCarsAdd, 'group.assign', async (trx, group, body) => {
    const wanted = [...new Set(body.car_ids)];
    const cars = await companyLiveCarIds(trx, group.company_id, wanted);
    // A vehicle of another company, deleted or unknown: not found, and nothing stored.
    if (cars.length !== wanted.length) throw notFound();
    const count = await addCarsToGroup(trx, group.group_id, cars);
    await assignmentsChanged(trx, group.company_id);
    return { result: { ok: true, count }, detail: { car_ids: wanted } };
  });

  groupCall(groupZonesUpdate, 'group.zones', async (trx, group, body) => {
    const ids = [...new Set(body.zone_ids)];
    // A zone of another company (or none) is not one the group can have: refused, nothing stored.
    if ((await companyZoneIds(trx, group.company_id, ids)).size !== ids.length)
      throw badRequest(zoneMessages.otherCompanyGroup, { zone_ids: zoneMessages.otherCompanyGroup });
    await replaceGroupZones(trx, group.group_id, group.company_id, ids);
    return { result: { ok: true, count: ids.length }, detail: { zone_ids: ids } };
  });

  registerCall(app, ctx, groupZones, {
    auth: 'user',
    allow: readers,
    handler: async ({ body, access }) => {
      const group = await visibleGroup(db, access, body.group_id);
      return { group_id: group.group_id, zones: await groupZoneList(db, group.group_id) };
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
        await ownGroups(trx, car.company_id, ids);
        await replaceCarGroups(trx, car.car_id, ids);
        // The vehicle's groups' zones are judged for it from this commit.
        if (car.company_id !== null) await assignmentsChanged(trx, car.company_id);
      });
      await writeAudit(db, access, 'group.assign', 'car', body.car_id, { group_ids: ids });
      return { ok: true };
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
        if (ids !== null) await ownGroups(trx, account.company_id, ids);
        await setAccountGroups(trx, body.account_id, ids);
      });
      // The session carries the limit: every instance forgets it now (the trigger says so too).
      await sessionsChanged(db, { accountId: body.account_id });
      await writeAudit(db, access, 'group.limit', 'account', body.account_id, { group_ids: ids });
      return { ok: true };
    },
  });
}
