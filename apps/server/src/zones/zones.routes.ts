import {
  carZones,
  carZonesUpdate,
  zoneAdd,
  zoneDelete,
  zoneList,
  zoneMessages,
  zoneCarsAdd,
  zoneUpdate,
  type Capabilities,
} from '@fleet/contract';
import type { FastifyInstance } from 'fastify';
import type { Access } from '../access/access.js';
import { registerCall } from '../access/route.js';
import { writeAudit } from '../audit/audit.repository.js';
import type { Db } from '../db/database.js';
import type { AppContext } from '../http/context.js';
import { badRequest, conflict, notFound } from '../http/errors.js';
import {
  addCarZones,
  carGroupZoneList,
  carZoneList,
  companyZoneIds,
  deleteZone,
  findZone,
  insertZone,
  listZones,
  liveCompanyCarIds,
  lockCarForZones,
  replaceCarZones,
  updateZone,
  zonesInScope,
} from './zones.repository.js';

const readers = (c: Capabilities) => c.seeCarsAndCustomers;
const editors = (c: Capabilities) => c.editCarsAndCustomers;
const companyMessages = { otherCompany: zoneMessages.otherCompanyField, companyMissing: zoneMessages.companyMissing };

/** A zone in the caller's reach, or 404. */
async function visibleZone(db: Db, access: Access, zoneId: string) {
  const zone = await findZone(db, zoneId, access.company);
  if (!zone) throw notFound(zoneMessages.notFound);
  return zone;
}

/** Zones of a company (docs/zones.md): the library and the direct assignments to vehicles. */
export function registerZoneRoutes(app: FastifyInstance, ctx: AppContext) {
  const { db } = ctx;

  registerCall(app, ctx, zoneList, {
    auth: 'user',
    allow: readers,
    handler: async ({ body, access }) => {
      const company = access.company ?? body.company_id ?? null;
      return { list: await listZones(db, company) };
    },
  });

  registerCall(app, ctx, zoneAdd, {
    auth: 'user',
    allow: editors,
    handler: async ({ body, access }) => {
      const company = await access.companyFor(body.info.company_id ?? null, companyMessages);
      if (company === null)
        throw badRequest(zoneMessages.companyRequired, { company_id: zoneMessages.companyRequired });
      const zone_id = await db.transaction().execute((trx) => insertZone(trx, company, body.info, new Date()));
      await writeAudit(db, access, 'zone.add', 'zone', zone_id, { name: body.info.name, shape: body.info.shape });
      return { zone_id };
    },
  });

  registerCall(app, ctx, zoneUpdate, {
    auth: 'user',
    allow: editors,
    handler: async ({ body, access }) => {
      const zone = await visibleZone(db, access, body.zone_id);
      await db.transaction().execute((trx) => updateZone(trx, zone.zone_id, zone.company_id, body.info, new Date()));
      await writeAudit(db, access, 'zone.update', 'zone', zone.zone_id, {
        name: body.info.name,
        shape: body.info.shape,
      });
      return { ok: true };
    },
  });

  registerCall(app, ctx, zoneDelete, {
    auth: 'user',
    allow: editors,
    handler: async ({ body, access }) => {
      const zone = await visibleZone(db, access, body.zone_id);
      await db.transaction().execute((trx) => deleteZone(trx, zone.zone_id, zone.company_id));
      await writeAudit(db, access, 'zone.delete', 'zone', zone.zone_id, { name: zone.name });
      return { ok: true };
    },
  });

  registerCall(app, ctx, carZones, {
    auth: 'user',
    allow: readers,
    handler: async ({ body, access }) => {
      await access.see('car_id', body.car_id);
      return {
        car_id: body.car_id,
        zones: await carZoneList(db, body.car_id),
        group_zones: await carGroupZoneList(db, body.car_id),
      };
    },
  });

  registerCall(app, ctx, carZonesUpdate, {
    auth: 'user',
    allow: editors,
    handler: async ({ body, access }) => {
      await access.see('car_id', body.car_id);
      const ids = [...new Set(body.zone_ids)];
      const count = await db.transaction().execute(async (trx) => {
        const car = await lockCarForZones(trx, body.car_id);
        if (!car) throw notFound();
        if (car.is_delete) throw conflict(zoneMessages.carDeleted);
        if (car.company_id === null)
          throw badRequest(zoneMessages.otherCompany, { zone_ids: zoneMessages.otherCompany });
        const own = await companyZoneIds(trx, car.company_id, ids);
        // A zone of another company (or none) is not one the vehicle can have: refused, nothing stored.
        if (own.size !== ids.length)
          throw badRequest(zoneMessages.otherCompany, { zone_ids: zoneMessages.otherCompany });
        await replaceCarZones(trx, car.car_id, car.company_id, ids);
        return ids.length;
      });
      await writeAudit(db, access, 'zone.assign', 'car', body.car_id, { zone_ids: ids });
      return { ok: true, count };
    },
  });

  registerCall(app, ctx, zoneCarsAdd, {
    auth: 'user',
    allow: editors,
    handler: async ({ body, access }) => {
      const zoneIds = [...new Set(body.zone_ids)];
      const zones = await zonesInScope(db, zoneIds, access.company);
      if (zones.length !== zoneIds.length) throw notFound(zoneMessages.notFound);
      const companies = new Set(zones.map((z) => z.company_id));
      if (companies.size !== 1)
        throw badRequest(zoneMessages.mixedCompanies, { zone_ids: zoneMessages.mixedCompanies });
      const [company] = companies as Set<string>;
      const carIds = [...new Set(body.car_ids)];
      const count = await db.transaction().execute(async (trx) => {
        const cars = await liveCompanyCarIds(trx, company!, carIds);
        // A vehicle of another company, deleted or unknown: not found, and nothing stored.
        if (cars.length !== carIds.length) throw notFound();
        return addCarZones(trx, company!, cars, zoneIds);
      });
      await writeAudit(db, access, 'zone.assign', 'company', company!, { zone_ids: zoneIds, car_ids: carIds });
      return { ok: true, count };
    },
  });
}
