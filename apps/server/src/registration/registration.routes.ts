import { carUserDeviceAdd, type Capabilities } from '@fleet/contract';
import type { FastifyInstance } from 'fastify';
import { addCar } from '../car/car.service.js';
import { addCarUser } from '../car-user/car-user.service.js';
import { addDevice } from '../device/device.service.js';
import type { AppContext } from '../http/context.js';
import { AppError } from '../http/errors.js';
import { registerCall } from '../access/route.js';

/** Field errors of one part of the wizard, keyed like its request: 'user.x', 'device.x', 'car.x'. */
const inPart = async (part: 'user' | 'device' | 'car', step: () => Promise<void>) => {
  try {
    await step();
  } catch (e) {
    if (!(e instanceof AppError) || !e.errors) throw e;
    const errors = Object.fromEntries(Object.entries(e.errors).map(([k, v]) => [`${part}.${k}`, v]));
    throw new AppError(e.statusCode, e.code, e.message, errors);
  }
};

/**
 * The registration wizard (docs/product.md §2 /car/car_user_device_add): customer,
 * terminal and vehicle in one transaction, so a failure leaves nothing behind.
 */
export function registerRegistrationRoutes(app: FastifyInstance, ctx: AppContext) {
  registerCall(app, ctx, carUserDeviceAdd, {
    auth: 'user',
    allow: (c: Capabilities) => c.registerCarsAndCustomers,
    handler: async ({ body, access }) => {
      const { user, device, car } = body;
      await ctx.db.transaction().execute(async (trx) => {
        await inPart('user', () => addCarUser(trx, access, user));
        await inPart('device', () => addDevice(trx, device));
        await inPart('car', () =>
          addCar(trx, access, { ...car, user_id: user.user_id, car_device_id: device.car_device_id }),
        );
      });
      return { ok: true, user_id: user.user_id, car_device_id: device.car_device_id, car_id: car.car_id };
    },
  });
}
