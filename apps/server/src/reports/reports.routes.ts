import {
  REPORT_EXPORT_PATH,
  ReportExportQuery,
  fieldErrors,
  jstDayOf,
  parseDateBound,
  reportMessages,
  reportSubscription,
  reportSubscriptionUpdate,
} from '@fleet/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { accessOf, registerCall } from '../access/route.js';
import type { AppContext } from '../http/context.js';
import { badRequest, forbidden, tooManyRequests } from '../http/errors.js';
import { createExportGate } from '../telemetry/export-gate.js';
import { carTripsFor, dailyTripsFor, fleetSummaryFor } from '../trips/trips.service.js';
import { dailyReportData, summaryReportData } from './report-data.js';
import { dailyCsv, dailyPdf, dailyXlsx, summaryCsv, summaryPdf, summaryXlsx, type ReportFile } from './report-files.js';
import { carNumberOf } from './reports.repository.js';
import { sentForOnSubscribe } from './scheduled-reports.js';
import { getSubscription, saveSubscription } from './subscription.repository.js';

const dailyFile = { xlsx: dailyXlsx, pdf: dailyPdf, csv: dailyCsv } as const;
const summaryFile = { xlsx: summaryXlsx, pdf: summaryPdf, csv: summaryCsv } as const;

/**
 * POST /api/report_export (docs/trips.md "Exports"): a daily report (運行日報) of one vehicle or the fleet
 * summary, as xlsx, pdf or csv. The token in the Authorization header and the query as JSON, like the log
 * export; the numbers are what car_trips and fleet_summary answer the same caller (trips/trips.service.ts).
 */
export function registerReportRoutes(app: FastifyInstance, ctx: AppContext) {
  const enter = createExportGate();

  app.post(REPORT_EXPORT_PATH, async (request: FastifyRequest, reply: FastifyReply) => {
    const access = await accessOf(ctx, request);
    access.require((c) => c.seeCarsAndCustomers);
    const parsed = ReportExportQuery.safeParse(request.body ?? {});
    if (!parsed.success) throw badRequest(undefined, fieldErrors(parsed.error));
    const q = parsed.data;
    // A group-limited account: a vehicle outside its groups is not found, as for every call.
    await access.seeVehiclesOf(q);
    const leave = enter(access.account_id);
    if (!leave) throw tooManyRequests(reportMessages.exportBusy);
    try {
      const now = new Date();
      let file: ReportFile;
      let name: string;
      if (q.kind === 'daily') {
        const carDataId = q.car_data_id!;
        const from = q.date ? q.date : jstDayOf(parseDateBound(q.from, 'from')!);
        const to = q.date ? q.date : jstDayOf(parseDateBound(q.to, 'to')!);
        const found = q.date
          ? await dailyTripsFor(ctx.db, access, carDataId, q.date)
          : await carTripsFor(ctx.db, access, {
              car_data_id: carDataId,
              from: parseDateBound(q.from, 'from')!,
              to: parseDateBound(q.to, 'to')!,
            });
        const vehicle = { car_number: await carNumberOf(ctx.db, carDataId, access.company), car_data_id: carDataId };
        file = await dailyFile[q.format](dailyReportData(found, vehicle, { from, to }), now);
        name = `daily_report_${carDataId}_${from === to ? from : `${from}_${to}`}`;
      } else {
        const range = { from: parseDateBound(q.from, 'from')!, to: parseDateBound(q.to, 'to')! };
        const found = await fleetSummaryFor(ctx.db, access, {
          ...range,
          company_id: q.company_id,
          group_id: q.group_id,
        });
        const data = await summaryReportData(ctx.db, found, access.companyFilter(q.company_id), range);
        file = await summaryFile[q.format](data, now);
        name = `fleet_summary_${data.from}_${data.to}`;
      }
      return reply
        .header('cache-control', 'no-store')
        .header('content-type', file.contentType)
        .header('content-disposition', `attachment; filename="${name}.${file.extension}"`)
        .send(file.body);
    } finally {
      leave();
    }
  });

  registerCall(app, ctx, reportSubscription, {
    auth: 'user',
    handler: ({ access }) => getSubscription(ctx.db, access.account_id),
  });

  registerCall(app, ctx, reportSubscriptionUpdate, {
    auth: 'user',
    handler: async ({ body, access }) => {
      // Only the super admin picks a company (null: every company); everyone else gets their own company's.
      let company: string | null = null;
      if (body.company_id) {
        if (!access.caps.allCompanies) throw forbidden(reportMessages.otherCompany);
        company = await access.companyFor(body.company_id, reportMessages);
      }
      const now = new Date();
      await saveSubscription(
        ctx.db,
        access.account_id,
        { daily: body.daily, monthly: body.monthly, company_id: company },
        { daily: sentForOnSubscribe('daily', now), monthly: sentForOnSubscribe('monthly', now) },
        now,
      );
      return { ok: true };
    },
  });
}
