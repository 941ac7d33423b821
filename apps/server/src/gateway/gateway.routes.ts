import { DEVICE_BATCH_PATH, DeviceBatch, deviceProtocolMessages as msg, fieldErrors, type DeviceBatchResponse } from '@fleet/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../http/context.js';
import { badRequest } from '../http/errors.js';
import type { LiveHub } from '../live/live-hub.js';
import { authenticateDevice } from './device-auth.js';
import { ingestBatch } from './ingest.service.js';

/**
 * The device gateway of docs/device-protocol.md. Terminals are not console
 * users, so this is not a registerCall: HTTP Basic with the terminal's id and
 * password, and an answer the terminal can act on even when some records fail.
 */
export function registerGatewayRoutes(app: FastifyInstance, ctx: AppContext, live: LiveHub) {
  // Thousands of terminals report every few seconds: log their requests only when something goes wrong.
  app.post(DEVICE_BATCH_PATH, { bodyLimit: 4 * 1024 * 1024, logLevel: 'warn' }, async (request, reply): Promise<DeviceBatchResponse> => {
    reply.header('cache-control', 'no-store');
    let device;
    try {
      device = await authenticateDevice(ctx.db, request.headers.authorization);
    } catch (err) {
      if ((err as { statusCode?: number }).statusCode === 401)
        reply.header('www-authenticate', 'Basic realm="fleet-device", charset="UTF-8"');
      throw err;
    }
    const parsed = DeviceBatch.safeParse(request.body);
    if (!parsed.success) throw badRequest(msg.badBatch, fieldErrors(parsed.error));
    const { response, state } = await ingestBatch(ctx.db, device, parsed.data, new Date(), { publicUrl: ctx.config.publicUrl });
    if (state) live.publish(state).catch((err: unknown) => request.log.warn({ err }, 'live publish failed'));
    return response;
  });
}
