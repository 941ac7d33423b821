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
import { registerCall } from '../access/route.js';
import { accountExists, countAccounts, findAccount, findManagedAccount, listAccounts } from './account.repository.js';
import { addAccount, deleteAccount, editAccount, resetPassword } from './account.service.js';

const canManage = (c: Capabilities) => c.manageAccounts;

/** Admin accounts (docs/product.md §7): managers manage their company's; everyone reads and re-keys their own. */
export function registerAccountRoutes(app: FastifyInstance, ctx: AppContext) {
  const { db, config } = ctx;

  registerCall(app, ctx, accountListCount, {
    auth: 'user',
    allow: canManage,
    handler: async ({ body, access }) => ({ count: await countAccounts(db, access, body) }),
  });
  registerCall(app, ctx, accountList, {
    auth: 'user',
    allow: canManage,
    handler: async ({ body, access }) => ({ list: await listAccounts(db, access, body) }),
  });

  registerCall(app, ctx, accountGetDetail, {
    auth: 'user',
    handler: async ({ body, access }) => {
      const own = body.account_id === access.account_id;
      const account = own
        ? await findAccount(db, access.account_id)
        : await findManagedAccount(db, access, body.account_id);
      if (!account || (!own && !access.caps.manageAccounts)) throw notFound();
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
    handler: async ({ body, access }) => {
      await addAccount(db, access, body.info, config.passwordHashLog2N);
      return { ok: true, account_id: body.info.account_id };
    },
  });

  registerCall(app, ctx, accountUpdate, {
    auth: 'user',
    allow: canManage,
    handler: async ({ body, access }) => {
      await editAccount(db, access, body.info, config.passwordHashLog2N);
      return { ok: true };
    },
  });

  registerCall(app, ctx, accountDelete, {
    auth: 'user',
    allow: canManage,
    handler: async ({ body, access }) => {
      await deleteAccount(db, access, body.account_id, body.isDelete);
      return { ok: true };
    },
  });

  registerCall(app, ctx, passwordReset, {
    auth: 'user',
    handler: async ({ body, access, request }) => {
      await resetPassword(db, access, body.info, request.ip, config.passwordHashLog2N);
      return { ok: true };
    },
  });
}
