import {
  DEVICE_BATCH_PATH,
  DeviceBatch,
  deviceProtocolMessages as msg,
  fieldErrors,
  type DeviceBatchResponse,
} from '@fleet/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../http/context.js';
import { badRequest, tooManyRequests } from '../http/errors.js';
import { bodyWithoutEscapes } from '../http/json-body.js';
import type { LiveHub } from '../live/live-hub.js';
import { coalesce } from './coalesce.js';
import { authenticateDevice, findDevices, parseBasic, type AuthedDevice, type DeviceLookup } from './device-auth.js';
import { GroupCommit } from './group-commit.js';
import { registerOsmandRoutes } from './osmand.routes.js';
import {
  TERMINAL_AUTH_LIMITS,
  findLimited,
  limitKey,
  recordTerminalAuthFailure,
} from '../credentials/terminal-auth-limit.js';
import { notificationFollower } from '../notify/ingest-follower.js';

/**
 * The device gateway of docs/device-protocol.md. Terminals are not console
 * users, so this is not a registerCall: HTTP Basic with the terminal's id and
 * password, and an answer the terminal can act on even when some records fail.
 */
export function registerGatewayRoutes(app: FastifyInstance, ctx: AppContext, live: LiveHub) {
  // Batches arriving together are committed together, each answered after its commit (group-commit.ts);
  // terminals arriving together are looked up together (coalesce.ts).
  const writer = new GroupCommit(ctx.db, {
    followers: [notificationFollower(ctx.config.publicUrl)],
    committed: (states) =>
      live.publishAll(states).catch((err: unknown) => app.log.warn({ err }, 'live publish failed')),
  });
  // One query of each in flight: the terminals arriving meanwhile go together in the next (bench: about six
  // a query when a thousand connect at once, against one or two with two in flight).
  const findRow = coalesce((ids: string[]) => findDevices(ctx.db, ids), { concurrency: 1 });
  const findLimit = coalesce((keys: string[]) => findLimited(ctx.db, keys), { concurrency: 1 });
  // With the terminal cache (credentials/terminal-cache.ts), a terminal that reported a minute ago costs neither.
  const cache = ctx.terminals;
  const lookup: DeviceLookup = (id) => (cache ? cache.device(id, findRow) : findRow(id));
  const limited = async (ip: string, id: string) => {
    const load = async () => {
      const state = await findLimit(limitKey(ip, id));
      if (!state) throw new Error('findLimited answered no state');
      return state;
    };
    if (cache) return cache.limited(ip, id, load);
    const state = await load();
    return state.ip || state.id;
  };
  const devices = new WeakMap<FastifyRequest, AuthedDevice>();
  // OsmAnd / Traccar Client: another way in, the same ingest (docs/device-protocol.md §10).
  registerOsmandRoutes(app, ctx, { writer, limited });

  /**
   * The terminal is authenticated from the headers, before the body is read:
   * an unauthenticated 4 MB body is never buffered or parsed, and the refusal
   * closes the connection rather than take the rest of it.
   */
  async function authenticate(request: FastifyRequest, reply: FastifyReply) {
    const ip = request.ip;
    const carDeviceId = parseBasic(request.headers.authorization)?.id ?? '';
    const checked = authenticateDevice(ctx.db, request.headers.authorization, ip, lookup);
    checked.catch(() => {}); // awaited below unless the limit answers first
    try {
      if (await limited(ip, carDeviceId)) throw tooManyRequests(msg.tooManyFailures);
      devices.set(request, await checked);
    } catch (err) {
      const status = (err as { statusCode?: number }).statusCode;
      if (status === 401) {
        reply.header('www-authenticate', 'Basic realm="fleet-device", charset="UTF-8"');
        request.log.warn({ car_device_id: carDeviceId || null, ip }, 'terminal authentication failed');
        await recordTerminalAuthFailure(ctx.db, ip, carDeviceId);
      }
      if (status === 429) reply.header('retry-after', String(TERMINAL_AUTH_LIMITS.windowMinutes * 60));
      if (status && status < 500) reply.header('connection', 'close');
      throw err;
    }
  }

  // Thousands of terminals report every few seconds: log their requests only when something goes wrong.
  app.post(
    DEVICE_BATCH_PATH,
    { bodyLimit: 4 * 1024 * 1024, logLevel: 'warn', onRequest: authenticate },
    async (request): Promise<DeviceBatchResponse> => {
      const device = devices.get(request)!;
      const parsed = DeviceBatch.safeParse(request.body);
      if (!parsed.success) throw badRequest(msg.badBatch, fieldErrors(parsed.error));
      const source = { escapeFree: bodyWithoutEscapes(request) };
      return (await writer.ingest(device, parsed.data, new Date(), source)).response;
    },
  );
}
