import {
  accountAdd,
  accountDelete,
  accountExistCheck,
  accountGetDetail,
  accountList,
  accountListCount,
  accountUpdate,
  passwordReset,
  type Capabilities,
} from '@fleet/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../http/context.js';
import { notFound } from '../http/errors.js';
import { registerCall } from '../http/route.js';
import { accountExists, countAccounts, findAccount, findManagedAccount, listAccounts } from './account.repository.js';
import { addAccount, deleteAccount, editAccount, resetPassword } from './account.service.js';

const canManage = (c: Capabilities) => c.manageAccounts;

/** Admin accounts (SPEC.md §7): managers manage their company's; everyone reads and re-keys their own. */
export function registerAccountRoutes(app: FastifyInstance, ctx: AppContext) {
  const { db } = ctx;

  registerCall(app, ctx, accountListCount, {
    auth: 'user',
    allow: canManage,
    handler: async ({ body, actor }) => ({ count: await countAccounts(db, actor, body) }),
  });
  registerCall(app, ctx, accountList, {
    auth: 'user',
    allow: canManage,
    handler: async ({ body, actor }) => ({ list: await listAccounts(db, actor, body) }),
  });

  registerCall(app, ctx, accountGetDetail, {
    auth: 'user',
    handler: async ({ body, actor }) => {
      const own = body.account_id === actor.account_id;
      const account = own ? await findAccount(db, actor.account_id) : await findManagedAccount(db, actor, body.account_id);
      if (!account || (!own && actor.role === 2)) throw notFound();
      return account;
    },
  });

  registerCall(app, ctx, accountExistCheck, {
    auth: 'user',
    allow: canManage,
    handler: async ({ body }) => ({ isExist: await accountExists(db, body.check_item, body.check_value) }),
  });

  registerCall(app, ctx, accountAdd, {
    auth: 'user',
    allow: canManage,
    handler: async ({ body, actor }) => {
      await addAccount(db, actor, body.info);
      return { ok: true, account_id: body.info.account_id };
    },
  });

  registerCall(app, ctx, accountUpdate, {
    auth: 'user',
    allow: canManage,
    handler: async ({ body, actor }) => {
      await editAccount(db, actor, body.info);
      return { ok: true };
    },
  });

  registerCall(app, ctx, accountDelete, {
    auth: 'user',
    allow: canManage,
    handler: async ({ body, actor }) => {
      await deleteAccount(db, actor, body.account_id, body.isDelete);
      return { ok: true };
    },
  });

  registerCall(app, ctx, passwordReset, {
    auth: 'user',
    handler: async ({ body, actor, request }) => {
      await resetPassword(db, actor, body.info, request.ip);
      return { ok: true };
    },
  });
}
