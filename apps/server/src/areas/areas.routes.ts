import {
  areaMessages,
  carAvailableAreasUpdate,
  carAvailableUpdate,
  carDisableAreasUpdate,
  carGetAreaStatus,
  carGetAvailableAreas,
  carGetAvailableData,
  carGetDisableAreas,
  isInsideForbiddenArea,
  isOutsideAvailableArea,
  type AreaKind,
  type Capabilities,
} from '@fleet/contract';
import type { FastifyInstance } from 'fastify';
import { writeAudit } from '../audit/audit.repository.js';
import type { AppContext } from '../http/context.js';
import { conflict } from '../http/errors.js';
import { registerCall } from '../access/route.js';
import { setAvailableData } from '../car/car.repository.js';
import { availableData, latestPosition, listAreas, type NamedArea } from './areas.repository.js';
import { replaceCarAreas, visibleCar } from './areas.service.js';
import { registerAreaTemplateRoutes } from './template.routes.js';
import type { Access } from '../access/access.js';

const engineAndAreas = (c: Capabilities) => c.engineAndAreas;

/** A vehicle's areas (docs/product.md §7 car_*available*, car_*disable_areas*) and their judgement. */
export function registerAreaRoutes(app: FastifyInstance, ctx: AppContext) {
  const { db } = ctx;

  registerCall(app, ctx, carGetAvailableData, {
    auth: 'user',
    allow: engineAndAreas,
    handler: async ({ body, access }) => ({
      car_id: body.car_id,
      available_data: availableData(await visibleCar(db, access, body.car_id)),
    }),
  });

  registerCall(app, ctx, carAvailableUpdate, {
    auth: 'user',
    allow: engineAndAreas,
    handler: async ({ body, access }) => {
      const car = await visibleCar(db, access, body.car_id);
      if (car.is_delete) throw conflict(areaMessages.carDeleted);
      await setAvailableData(db, body.car_id, body.available_data, new Date());
      await writeAudit(db, access, 'area.available_data', 'area', body.car_id, { available_data: body.available_data });
      return { ok: true };
    },
  });

  const readList = async (access: Access, carId: string, kind: AreaKind) => {
    await visibleCar(db, access, carId);
    return listAreas(db, carId, kind);
  };
  const writeList = async (access: Access, carId: string, kind: AreaKind, areas: NamedArea[]) => {
    await visibleCar(db, access, carId);
    await replaceCarAreas(db, carId, kind, areas);
    await writeAudit(db, access, `area.${kind}`, 'area', carId, { count: areas.length });
    return { ok: true, count: areas.length };
  };
  registerCall(app, ctx, carGetAvailableAreas, {
    auth: 'user',
    allow: engineAndAreas,
    handler: async ({ body, access }) => ({
      car_id: body.car_id,
      available_areas: await readList(access, body.car_id, 'available'),
    }),
  });
  registerCall(app, ctx, carAvailableAreasUpdate, {
    auth: 'user',
    allow: engineAndAreas,
    handler: ({ body, access }) => writeList(access, body.car_id, 'available', body.available_areas),
  });
  registerCall(app, ctx, carGetDisableAreas, {
    auth: 'user',
    allow: engineAndAreas,
    handler: async ({ body, access }) => ({
      car_id: body.car_id,
      disable_areas: await readList(access, body.car_id, 'disable'),
    }),
  });
  registerCall(app, ctx, carDisableAreasUpdate, {
    auth: 'user',
    allow: engineAndAreas,
    handler: ({ body, access }) => writeList(access, body.car_id, 'disable', body.disable_areas),
  });

  registerCall(app, ctx, carGetAreaStatus, {
    auth: 'user',
    allow: engineAndAreas,
    handler: async ({ body, access }) => {
      const car = await visibleCar(db, access, body.car_id);
      const own = availableData(car);
      const available = [...(own ? [own] : []), ...(await listAreas(db, car.car_id, 'available'))];
      const disable = await listAreas(db, car.car_id, 'disable');
      const position = car.car_data_id ? await latestPosition(db, car.car_data_id, access.company) : null;
      return {
        car_id: car.car_id,
        position,
        outsideAvailable: isOutsideAvailableArea(position, available),
        insideForbidden: isInsideForbiddenArea(position, disable),
        availableCount: available.length,
        disableCount: disable.length,
      };
    },
  });

  registerAreaTemplateRoutes(app, ctx);
}
