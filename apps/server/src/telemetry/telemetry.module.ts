import { BATCH_RECEIPT_DAYS } from '@fleet/contract';
import type { FastifyInstance } from 'fastify';
import { registerGatewayRoutes } from '../gateway/gateway.routes.js';
import { pruneBatchReceipts } from '../gateway/ingest.repository.js';
import type { AppContext } from '../http/context.js';
import { createMemoryHub, createPostgresHub } from '../live/live-hub.js';
import { registerLiveRoutes } from '../live/live.routes.js';
import { registerExportRoutes } from './export.routes.js';
import { registerTelemetryRoutes } from './telemetry.routes.js';

/**
 * Live telemetry in one place: the device gateway that stores what terminals
 * report, the console's log calls and CSV export, and the live push the
 * gateway feeds (through PostgreSQL NOTIFY when there is a server to share).
 */
export function registerTelemetry(app: FastifyInstance, ctx: AppContext) {
  const live = ctx.config.DATABASE_URL ? createPostgresHub(ctx.db, ctx.config.DATABASE_URL, app.log) : createMemoryHub();
  app.addHook('onClose', () => live.close());
  registerGatewayRoutes(app, ctx, live);
  registerTelemetryRoutes(app, ctx, live);
  registerExportRoutes(app, ctx);
  registerLiveRoutes(app, ctx, live);

  // Batch receipts only serve retries: forget them after BATCH_RECEIPT_DAYS, checked hourly.
  const prune = setInterval(() => {
    pruneBatchReceipts(ctx.db, BATCH_RECEIPT_DAYS).catch((err: unknown) => app.log.warn({ err }, 'pruning batch receipts failed'));
  }, 3600_000);
  prune.unref();
  app.addHook('onClose', async () => clearInterval(prune));
}
