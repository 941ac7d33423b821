import {
  userAdd,
  userDelete,
  userExistCheck,
  userGetDetail,
  userList,
  userListCount,
  userUpdate,
  type Capabilities,
} from '@fleet/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../http/context.js';
import { notFound } from '../http/errors.js';
import { registerCall } from '../access/route.js';
import { carUserExists, countCarUsers, findCarUser, listCarUsers } from './car-user.repository.js';
import { addCarUser, deleteCarUser, editCarUser } from './car-user.service.js';

const canRegister = (c: Capabilities) => c.registerCarsAndCustomers;
const canEdit = (c: Capabilities) => c.editCarsAndCustomers;

/** Customers (docs/product.md §7 user_*): everyone reads their company's; managers edit; the super admin registers. */
export function registerCarUserRoutes(app: FastifyInstance, ctx: AppContext) {
  const { db } = ctx;

  registerCall(app, ctx, userListCount, {
    auth: 'user',
    handler: async ({ body, access }) => ({ count: await countCarUsers(db, access, body) }),
  });
  registerCall(app, ctx, userList, {
    auth: 'user',
    handler: async ({ body, access }) => ({ list: await listCarUsers(db, access, body) }),
  });

  registerCall(app, ctx, userGetDetail, {
    auth: 'user',
    handler: async ({ body, access }) => {
      const user = await findCarUser(db, body.user_id, access.company);
      if (!user) throw notFound();
      return user;
    },
  });

  registerCall(app, ctx, userExistCheck, {
    auth: 'user',
    allow: canRegister,
    handler: async ({ body }) => ({ isExist: await carUserExists(db, body.check_value) }),
  });

  registerCall(app, ctx, userAdd, {
    auth: 'user',
    allow: canRegister,
    handler: async ({ body, access }) => {
      await addCarUser(db, access, body.info);
      return { ok: true, user_id: body.info.user_id };
    },
  });

  registerCall(app, ctx, userUpdate, {
    auth: 'user',
    allow: canEdit,
    handler: async ({ body, access }) => {
      await editCarUser(db, access, body.info);
      return { ok: true };
    },
  });

  registerCall(app, ctx, userDelete, {
    auth: 'user',
    allow: canEdit,
    handler: async ({ body, access }) => {
      await deleteCarUser(db, access, body.user_id, body.isDelete);
      return { ok: true };
    },
  });
}
