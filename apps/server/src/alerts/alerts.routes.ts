import { alertAck, alertAckMany, alertCount, alertList, alertMessages, carEvents } from '@fleet/contract';
import type { FastifyInstance } from 'fastify';
import { registerCall } from '../access/route.js';
import type { AppContext } from '../http/context.js';
import { notFound } from '../http/errors.js';
import {
  acknowledge,
  acknowledgeAll,
  countAlerts,
  countUnacknowledged,
  listAlerts,
  lockAlertsInScope,
} from './alerts.repository.js';
import { carEventsOf } from './events.repository.js';

/** The alert inbox and a vehicle's timeline (docs/zones.md); a group-limited account's: its groups' vehicles only. */
export function registerAlertRoutes(app: FastifyInstance, ctx: AppContext) {
  const { db } = ctx;

  registerCall(app, ctx, alertList, {
    auth: 'user',
    handler: async ({ body, access }) => ({
      list: await listAlerts(db, access, body),
      count: await countAlerts(db, access, body),
      unacknowledged: await countUnacknowledged(db, access),
    }),
  });

  registerCall(app, ctx, alertCount, {
    auth: 'user',
    handler: async ({ access }) => ({ unacknowledged: await countUnacknowledged(db, access) }),
  });

  registerCall(app, ctx, alertAck, {
    auth: 'user',
    handler: async ({ body, access }) => {
      const done = await acknowledge(db, body.alert_id, access, access.account_id, new Date());
      if (!done) throw notFound(alertMessages.notFound);
      return { ok: true, acked_at: done.acked_at, acked_by: done.acked_by };
    },
  });

  registerCall(app, ctx, alertAckMany, {
    auth: 'user',
    handler: async ({ body, access }) => {
      const ids = [...new Set(body.alert_ids)];
      const now = new Date();
      const count = await db.transaction().execute(async (trx) => {
        // One alert out of reach (another company's, another group's, unknown) is 404 as for alert_ack, and nothing changes.
        if ((await lockAlertsInScope(trx, ids, access)).length !== ids.length) throw notFound(alertMessages.notFound);
        return acknowledgeAll(trx, ids, access.account_id, now);
      });
      return { ok: true, count, acked_at: now, acked_by: access.account_id };
    },
  });

  registerCall(app, ctx, carEvents, {
    auth: 'user',
    allow: (c) => c.seeCarsAndCustomers,
    handler: async ({ body, access }) => {
      await access.see('car_data_id', body.car_data_id);
      const windows = await access.windows(body.car_data_id);
      return carEventsOf(db, { ...body, windows });
    },
  });
}
