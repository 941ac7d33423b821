import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../http/context.js';
import { registerHealthRoutes } from './health.routes.js';
import { registerMetrics } from './metrics.js';
import { registerOpenApiRoutes } from './openapi.routes.js';

/** What operators and integrators read: probes, metrics, the API description (ops/README.md). */
export async function registerOperations(app: FastifyInstance, ctx: AppContext) {
  registerMetrics(app, ctx);
  registerHealthRoutes(app, ctx);
  await registerOpenApiRoutes(app);
}
