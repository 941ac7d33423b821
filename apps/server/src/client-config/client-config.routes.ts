import { clientConfig } from '@fleet/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../http/context.js';
import { registerCall } from '../access/route.js';

export function registerClientConfigRoutes(app: FastifyInstance, ctx: AppContext) {
  registerCall(app, ctx, clientConfig, {
    auth: 'public',
    handler: async () => ({
      tile_url: ctx.config.TILE_URL,
      tile_attribution: ctx.config.tileAttribution,
    }),
  });
}
