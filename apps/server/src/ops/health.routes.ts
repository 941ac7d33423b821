import { errorMessages, type ApiError } from '@fleet/contract';
import type { FastifyInstance } from 'fastify';
import { hasMigration, knownMigrations, ping } from '../db/database.js';
import type { AppContext } from '../http/context.js';
import { buildInfo } from './version.js';

export const HEALTH_PATH = '/healthz';
export const READY_PATH = '/readyz';
export const VERSION_PATH = '/api/version';
const READY_TIMEOUT_MS = 2000;

const withTimeout = <T>(work: Promise<T>, ms: number) =>
  Promise.race([
    work,
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms).unref()),
  ]);

/**
 * Probes for orchestrators and load balancers. /healthz: the process runs (restart it when this
 * fails). /readyz: the database answers within 2 s and holds every migration this build knows (send
 * traffic only while this is 200). Neither needs a token nor says more than that.
 */
export function registerHealthRoutes(app: FastifyInstance, ctx: AppContext) {
  const newest = knownMigrations.at(-1) ?? '';
  let migrated = false;

  const check = async () => {
    if (migrated) return ping(ctx.db);
    if (!(await hasMigration(ctx.db, newest))) throw new Error(`migration ${newest} is not applied yet`);
    migrated = true;
  };

  // HEAD too: some load balancers and uptime monitors probe with it.
  const probe = { logLevel: 'warn' as const, exposeHeadRoute: true };
  app.get(HEALTH_PATH, probe, async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    return { status: 'ok' };
  });
  // Public, like the probes: the version and the commit, nothing about the machine or the configuration.
  app.get(VERSION_PATH, probe, async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    const { version, commit } = buildInfo();
    return { version, commit };
  });
  app.get(READY_PATH, probe, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    try {
      await withTimeout(check(), READY_TIMEOUT_MS);
      return { status: 'ready' };
    } catch (err) {
      request.log.warn({ err }, 'not ready');
      return reply.status(503).send({ code: 'UNAVAILABLE', message: errorMessages.unavailable } satisfies ApiError);
    }
  });
}
