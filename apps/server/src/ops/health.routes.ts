import { errorMessages, type ApiError } from '@fleet/contract';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { knownMigrations } from '../db/database.js';
import type { AppContext } from '../http/context.js';

export const HEALTH_PATH = '/healthz';
export const READY_PATH = '/readyz';
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
    if (migrated) {
      await sql`SELECT 1`.execute(ctx.db);
      return;
    }
    // Kysely's own bookkeeping table; absent until the first migration ran (the query fails: not ready).
    const { rows } = await sql<{
      n: number;
    }>`SELECT count(*)::int AS n FROM kysely_migration WHERE name = ${newest}`.execute(ctx.db);
    if (Number(rows[0]?.n ?? 0) < 1) throw new Error(`migration ${newest} is not applied yet`);
    migrated = true;
  };

  const probe = { logLevel: 'warn' as const, exposeHeadRoute: false };
  app.get(HEALTH_PATH, probe, async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    return { status: 'ok' };
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
