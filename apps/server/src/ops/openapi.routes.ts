import { createRequire } from 'node:module';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { DOCS_PATH, OPENAPI_PATH, buildOpenApiDocument } from './openapi.js';

const { version } = createRequire(import.meta.url)('../../package.json') as { version: string };

/**
 * GET /api/openapi.json (built once from the contract) and a reading UI at /api/docs: Swagger UI,
 * whose files ship inside its npm package and are served from here (nothing from a CDN).
 */
export async function registerOpenApiRoutes(app: FastifyInstance) {
  const document = buildOpenApiDocument({ version });
  app.get(OPENAPI_PATH, { exposeHeadRoute: false }, async (_request, reply) => {
    reply.header('cache-control', 'no-cache');
    return document;
  });
  await app.register(async (docs) => {
    await docs.register(swagger, { mode: 'static', specification: { document: document as never } });
    await docs.register(swaggerUi, {
      routePrefix: DOCS_PATH,
      uiConfig: { docExpansion: 'none', deepLinking: true },
      theme: { title: 'フリートコンソール API' },
    });
  });
}
