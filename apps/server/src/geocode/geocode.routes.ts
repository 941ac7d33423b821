import { placeMessages, placeSearch } from '@fleet/contract';
import type { FastifyInstance } from 'fastify';
import { registerCall } from '../access/route.js';
import type { AppContext } from '../http/context.js';
import { AppError } from '../http/errors.js';
import { geocodeProviders, ProviderFailure } from './provider.js';

/**
 * place_search: the words typed on a map, sent to the address search (docs/geocoding.md); nothing else is. A
 * failing or silent service is 503 with a message the map shows.
 */
export function registerGeocodeRoutes(app: FastifyInstance, ctx: AppContext) {
  const { search } = geocodeProviders(ctx.config);
  registerCall(app, ctx, placeSearch, {
    auth: 'user',
    handler: async ({ body }) => {
      // Turned off: nothing is searched, nothing is found.
      if (!search) return { places: [] };
      try {
        return { places: await search.search(body.q) };
      } catch (err) {
        if (err instanceof ProviderFailure) {
          app.log.warn({ err: err.message }, 'address search failed');
          throw new AppError(503, 'UNAVAILABLE', placeMessages.searchFailed);
        }
        throw err;
      }
    },
  });
}
