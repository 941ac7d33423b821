import { carPlaces, carTrips, fleetSummary, tripMessages, tripSettings, tripSettingsUpdate } from '@fleet/contract';
import type { FastifyInstance } from 'fastify';
import type { Access } from '../access/access.js';
import { registerCall } from '../access/route.js';
import { writeAudit } from '../audit/audit.repository.js';
import type { AppContext } from '../http/context.js';
import { badRequest, notFound } from '../http/errors.js';
import { findTripSettings, saveTripSettings } from './trips.repository.js';
import { carTripsFor, fleetSummaryFor } from './trips.service.js';
import { carPlacesFor } from './places.service.js';

export function registerTripRoutes(app: FastifyInstance, ctx: AppContext) {
  const { db } = ctx;

  registerCall(app, ctx, carTrips, {
    auth: 'user',
    allow: (c) => c.seeCarsAndCustomers,
    handler: ({ body, access }) => carTripsFor(db, access, body),
  });

  // The places a vehicle frequents, from the same stops as car_trips (docs/geocoding.md).
  registerCall(app, ctx, carPlaces, {
    auth: 'user',
    allow: (c) => c.seeCarsAndCustomers,
    handler: ({ body, access }) => carPlacesFor(db, access, body),
  });

  registerCall(app, ctx, fleetSummary, {
    auth: 'user',
    allow: (c) => c.seeCarsAndCustomers,
    handler: ({ body, access }) => fleetSummaryFor(db, access, body),
  });

  /** The company whose rule is read or changed: a company admin's own; the super admin names one. */
  const settingsCompany = async (access: Access, requested: string | undefined) => {
    if (access.company === null && requested === undefined)
      throw badRequest(tripMessages.companyRequired, { company_id: tripMessages.companyRequired });
    const company = requested ?? access.company!;
    if (!(await access.sees('company_id', company))) throw notFound();
    return company;
  };

  registerCall(app, ctx, tripSettings, {
    auth: 'user',
    allow: (c) => c.tripSettings,
    handler: async ({ body, access }) => ({
      settings: await findTripSettings(db, await settingsCompany(access, body.company_id)),
    }),
  });

  registerCall(app, ctx, tripSettingsUpdate, {
    auth: 'user',
    allow: (c) => c.tripSettings,
    handler: async ({ body, access }) => {
      const company = await settingsCompany(access, body.company_id);
      await db.transaction().execute(async (trx) => {
        await saveTripSettings(trx, company, body.settings);
        await writeAudit(trx, access, 'company.trip_settings', 'company', company, { ...body.settings });
      });
      return { ok: true };
    },
  });
}
