import { OSMAND_PATH, deviceProtocolMessages as msg, osmandMessages } from '@fleet/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../http/context.js';
import { badRequest, tooManyRequests } from '../http/errors.js';
import { TERMINAL_AUTH_LIMITS, recordTerminalAuthFailure } from '../credentials/terminal-auth-limit.js';
import type { GroupCommit } from './group-commit.js';
import { sortRecords } from './ingest.service.js';
import { decodeOsmand, osmandSeq, type OsmandQuery } from './osmand-decoder.js';
import { authenticateOsmand, osmandIdOf } from './osmand-auth.js';

export interface OsmandDeps {
  /** The JSON gateway's group commit: the same ingest, idempotency, notifications and live push. */
  writer: GroupCommit;
  /** Whether an IP or a terminal (its IMEI here) is over the failed-authentication limit. */
  limited: (ip: string, id: string) => Promise<boolean>;
}

/** Form bodies of OsmAnd clients that POST their parameters; at most 64 kB like any report. */
const BODY_LIMIT = 64 * 1024;

/**
 * OsmAnd / Traccar Client over HTTP (docs/device-protocol.md §10): `GET` or `POST
 * /device/osmand/<terminal password>`, the terminal named by its IMEI in `id` / `device_id`.
 * The same routes serve OSMAND_PORT's `/<password>` (osmand-listener.ts). There is no
 * command channel: the answer is only whether the fix was stored.
 */
export function registerOsmandRoutes(app: FastifyInstance, ctx: AppContext, deps: OsmandDeps) {
  void app.register(async (scope) => {
    scope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: BODY_LIMIT },
      (_req, body, done) => done(null, Object.fromEntries(new URLSearchParams(body.toString()))),
    );
    const handler = async (request: FastifyRequest, reply: FastifyReply) => {
      const now = new Date();
      const query = request.query as OsmandQuery;
      const form = request.headers['content-type']?.startsWith('application/x-www-form-urlencoded')
        ? (request.body as OsmandQuery)
        : {};
      const params = { ...query, ...form };
      const body = request.headers['content-type']?.startsWith('application/json') ? request.body : undefined;
      const imei = osmandIdOf(params, body);
      if (!imei) throw badRequest(osmandMessages.noId);
      const device = await authenticate(request, reply, imei, (request.params as { password: string }).password);
      const decoded = decodeOsmand(params, body, now);
      if (!decoded.ok)
        throw badRequest(
          osmandMessages[decoded.error],
          decoded.field ? { [decoded.field]: osmandMessages[decoded.error] } : undefined,
        );
      // One fix is all or nothing: a rejected value is a 400, so the client does not believe it stored.
      const { rejected } = sortRecords(decoded.fix.records, now);
      if (rejected.length > 0)
        throw badRequest(osmandMessages.rejected, Object.fromEntries(rejected.map((r) => [String(r.index), r.reason])));
      const outcome = await deps.writer.ingest(
        device,
        { seq: osmandSeq(decoded.fix), records: decoded.fix.records },
        now,
      );
      return {
        accepted: outcome.response.accepted,
        duplicate: outcome.response.duplicate,
        server_time: outcome.response.server_time,
      };
    };

    async function authenticate(request: FastifyRequest, reply: FastifyReply, imei: string, password: string) {
      const ip = request.ip;
      try {
        if (await deps.limited(ip, imei)) throw tooManyRequests(msg.tooManyFailures);
        return await authenticateOsmand(ctx.db, imei, password, ip);
      } catch (err) {
        const status = (err as { statusCode?: number }).statusCode;
        if (status === 401) {
          request.log.warn({ imei, ip }, 'OsmAnd terminal authentication failed');
          await recordTerminalAuthFailure(ctx.db, ip, imei);
        }
        if (status === 429) reply.header('retry-after', String(TERMINAL_AUTH_LIMITS.windowMinutes * 60));
        if (status && status < 500) reply.header('connection', 'close');
        throw err;
      }
    }

    // Thousands of phones report every few seconds: log their requests only when something goes wrong.
    const options = { bodyLimit: BODY_LIMIT, logLevel: 'warn' as const, exposeHeadRoute: false };
    scope.get(`${OSMAND_PATH}/:password`, options, handler);
    scope.post(`${OSMAND_PATH}/:password`, options, handler);
  });
}
