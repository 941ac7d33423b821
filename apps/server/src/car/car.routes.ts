import {
  carAdd,
  carDelete,
  carGetDetail,
  carGetNewid,
  carList,
  carListCount,
  carMapList,
  carStatusUpdate,
  carUpdate,
  type Capabilities,
} from '@fleet/contract';
import type { FastifyInstance } from 'fastify';
import { writeAudit } from '../audit/audit.repository.js';
import type { AppContext } from '../http/context.js';
import { notFound } from '../http/errors.js';
import { registerCall } from '../access/route.js';
import { countCars, findCar, listCars, nextCarId, setCarStatus } from './car.repository.js';
import { addCar, deleteCar, editCar } from './car.service.js';
import { listFleetCars } from './car-map.repository.js';

const canRegister = (c: Capabilities) => c.registerCarsAndCustomers;
const canEdit = (c: Capabilities) => c.editCarsAndCustomers;

/** Vehicles (docs/product.md §7 car_*): everyone reads their company's; managers edit; the super admin registers. */
export function registerCarRoutes(app: FastifyInstance, ctx: AppContext) {
  const { db } = ctx;

  registerCall(app, ctx, carListCount, {
    auth: 'user',
    handler: async ({ body, access }) => ({ count: await countCars(db, access, body) }),
  });
  registerCall(app, ctx, carList, {
    auth: 'user',
    handler: async ({ body, access }) => ({ list: await listCars(db, access, body) }),
  });

  // The fleet map: a company sees its own vehicles whatever it asks; the super admin may pick one.
  registerCall(app, ctx, carMapList, {
    auth: 'user',
    handler: async ({ body, access }) => ({
      list: await listFleetCars(db, access.companyFilter(body.company_id), access.company, {
        limit: access.groups,
        filter: body.group_id,
      }),
    }),
  });

  registerCall(app, ctx, carGetDetail, {
    auth: 'user',
    handler: async ({ body, access }) => {
      const car = await findCar(db, body.car_id, access.company);
      if (!car) throw notFound();
      return car;
    },
  });

  registerCall(app, ctx, carGetNewid, {
    auth: 'user',
    allow: canRegister,
    handler: async () => ({ newid: await nextCarId(db) }),
  });

  registerCall(app, ctx, carAdd, {
    auth: 'user',
    allow: canRegister,
    handler: async ({ body, access }) => {
      await addCar(db, access, body.info);
      return { ok: true, car_id: body.info.car_id };
    },
  });

  registerCall(app, ctx, carUpdate, {
    auth: 'user',
    allow: canEdit,
    handler: async ({ body, access }) => {
      await editCar(db, access, body.info);
      return { ok: true };
    },
  });

  registerCall(app, ctx, carStatusUpdate, {
    auth: 'user',
    allow: canEdit,
    handler: async ({ body, access }) => {
      if (!(await findCar(db, body.car_id, access.company))) throw notFound();
      await setCarStatus(db, body.car_id, body.car_status);
      await writeAudit(db, access, 'car.status', 'car', body.car_id, { car_status: body.car_status });
      return { ok: true };
    },
  });

  registerCall(app, ctx, carDelete, {
    auth: 'user',
    allow: canEdit,
    handler: async ({ body, access }) => {
      await deleteCar(db, access, body.car_id, body.isDelete);
      return { ok: true };
    },
  });
}
