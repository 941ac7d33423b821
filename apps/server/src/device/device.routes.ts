import {
  deviceAdd,
  deviceDelete,
  deviceExistCheck,
  deviceGetDetail,
  deviceList,
  deviceListCount,
  deviceUpdate,
  type Capabilities,
} from '@fleet/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../http/context.js';
import { notFound } from '../http/errors.js';
import { registerCall } from '../access/route.js';
import { countDevices, deviceExists, findDevice, listDevices } from './device.repository.js';
import { addDevice, deleteDevice, editDevice } from './device.service.js';

const superAdmin = (c: Capabilities) => c.devicesAndCompanies;

/** GPS terminals (docs/product.md §7 device_*): the super admin's alone. */
export function registerDeviceRoutes(app: FastifyInstance, ctx: AppContext) {
  const { db } = ctx;

  registerCall(app, ctx, deviceListCount, {
    auth: 'user',
    allow: superAdmin,
    handler: async ({ body, access }) => ({ count: await countDevices(db, access, body) }),
  });
  registerCall(app, ctx, deviceList, {
    auth: 'user',
    allow: superAdmin,
    handler: async ({ body, access }) => ({ list: await listDevices(db, access, body) }),
  });

  registerCall(app, ctx, deviceGetDetail, {
    auth: 'user',
    allow: superAdmin,
    handler: async ({ body }) => {
      const device = await findDevice(db, body.car_device_id);
      if (!device) throw notFound();
      return device;
    },
  });

  registerCall(app, ctx, deviceExistCheck, {
    auth: 'user',
    allow: superAdmin,
    handler: async ({ body }) => ({ isExist: await deviceExists(db, body.check_item, body.check_value) }),
  });

  registerCall(app, ctx, deviceAdd, {
    auth: 'user',
    allow: superAdmin,
    handler: async ({ body }) => {
      await addDevice(db, body.info);
      return { ok: true, car_device_id: body.info.car_device_id };
    },
  });

  registerCall(app, ctx, deviceUpdate, {
    auth: 'user',
    allow: superAdmin,
    handler: async ({ body }) => {
      await editDevice(db, body.info);
      return { ok: true };
    },
  });

  registerCall(app, ctx, deviceDelete, {
    auth: 'user',
    allow: superAdmin,
    handler: async ({ body }) => {
      await deleteDevice(db, body.car_device_id, body.car_data_id, body.isDelete);
      return { ok: true };
    },
  });
}
