import { DEVICE_BATCH_PATH, DeviceBatch, deviceProtocolMessages as msg, fieldErrors, type DeviceBatchResponse } from '@fleet/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../http/context.js';
import { badRequest } from '../http/errors.js';
import type { LiveHub } from '../live/live-hub.js';
import { coalesce } from './coalesce.js';
import { authenticateDevice, findDevices } from './device-auth.js';
import { GroupCommit } from './group-commit.js';

/**
 * The device gateway of docs/device-protocol.md. Terminals are not console
 * users, so this is not a registerCall: HTTP Basic with the terminal's id and
 * password, and an answer the terminal can act on even when some records fail.
 */
export function registerGatewayRoutes(app: FastifyInstance, ctx: AppContext, live: LiveHub) {
  // Batches arriving together are committed together, each answered after its commit (group-commit.ts);
  // terminals arriving together are looked up together (coalesce.ts).
  const writer = new GroupCommit(ctx.db, {
    notify: { publicUrl: ctx.config.publicUrl },
    committed: (states) => live.publishAll(states).catch((err: unknown) => app.log.warn({ err }, 'live publish failed')),
  });
  const lookup = coalesce((ids: string[]) => findDevices(ctx.db, ids));
  // Thousands of terminals report every few seconds: log their requests only when something goes wrong.
  app.post(DEVICE_BATCH_PATH, { bodyLimit: 4 * 1024 * 1024, logLevel: 'warn' }, async (request, reply): Promise<DeviceBatchResponse> => {
    reply.header('cache-control', 'no-store');
    let device;
    try {
      device = await authenticateDevice(ctx.db, request.headers.authorization, lookup);
    } catch (err) {
      if ((err as { statusCode?: number }).statusCode === 401)
        reply.header('www-authenticate', 'Basic realm="fleet-device", charset="UTF-8"');
      throw err;
    }
    const parsed = DeviceBatch.safeParse(request.body);
    if (!parsed.success) throw badRequest(msg.badBatch, fieldErrors(parsed.error));
    return (await writer.ingest(device, parsed.data, new Date())).response;
  });
}
