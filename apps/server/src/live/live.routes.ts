import {
  LIVE_PATH,
  LIVE_TICKET_SECONDS,
  liveEvents,
  liveTicket,
  sessionMessages,
  type LiveState,
  type TelemetryState,
} from '@fleet/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../http/context.js';
import { unauthorized } from '../http/errors.js';
import { authenticate, registerCall } from '../access/route.js';
import { companyScope } from '../access/visibility.js';
import {
  listLatestStates,
  ownPartOf,
  toTelemetryState,
  type LiveRecord,
} from '../telemetry/latest-state.repository.js';
import type { LiveHub } from './live-hub.js';
import { createTicket, findLiveSession, redeemTicket, visibleTerminals } from './live.repository.js';

const HEARTBEAT_MS = 25_000;
/** A client this far behind is dropped; EventSource reconnects and gets a fresh snapshot. */
const MAX_BUFFERED = 1024 * 1024;

/**
 * Server-sent events of latest-state changes, limited to the vehicles the
 * caller may see: the snapshot as every read path shows it, each change by the
 * owner its record names (who had the terminal when it was stored), so a
 * terminal moved or a vehicle deleted while the stream is open stops reaching
 * the old company at once, and the new one gets no field group of the old
 * one's time. EventSource cannot send headers, so besides the usual
 * Authorization header it takes `?ticket=` from /api/live_ticket: single-use
 * and short-lived, so no long-lived token ends up in URLs and access logs.
 */
export function registerLiveRoutes(app: FastifyInstance, ctx: AppContext, live: LiveHub) {
  const { db, config } = ctx;
  const life = { idleMinutes: config.SESSION_IDLE_MINUTES, maxHours: config.SESSION_MAX_HOURS };
  const open = new Set<() => void>();
  app.addHook('preClose', async () => {
    for (const close of [...open]) close();
  });

  registerCall(app, ctx, liveTicket, {
    auth: 'user',
    handler: async ({ access }) => ({
      ticket: await createTicket(db, access.session.token_hash),
      expires_in: LIVE_TICKET_SECONDS,
    }),
  });

  const sessionOf = async (request: FastifyRequest): Promise<string> => {
    const ticket = (request.query as { ticket?: unknown }).ticket;
    if (typeof ticket === 'string' && ticket.length > 0 && ticket.length <= 256) {
      const tokenHash = await redeemTicket(db, ticket);
      if (!tokenHash) throw unauthorized();
      return tokenHash;
    }
    return (await authenticate(ctx, request)).session.token_hash;
  };

  // No automatic HEAD: a HEAD of a stream got no answer at all (Node sends no headers before a body write).
  app.get(LIVE_PATH, { exposeHeadRoute: false }, async (request, reply) => {
    const tokenHash = await sessionOf(request);
    const session = await findLiveSession(db, tokenHash, life);
    if (!session) throw unauthorized();
    const scope = companyScope(session);
    // The snapshot reads as every read path does (listLatestStates); the vehicles are the ones of now.
    const terminals = await visibleTerminals(db, scope);
    const visible = (s: TelemetryState): LiveState | null =>
      scope === null || terminals.has(s.car_data_id) ? { ...s, car_id: terminals.get(s.car_data_id) ?? null } : null;
    /** A change: the super admin's whole; a company's only while the terminal is on its vehicle, of its own time. */
    const pushed = (r: LiveRecord): LiveState | null => {
      const state = scope === null ? toTelemetryState(r) : r.owner_company_id === scope ? ownPartOf(r) : null;
      return state && { ...state, car_id: r.owner_car_id };
    };

    await live.ready();
    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
      'x-content-type-options': 'nosniff',
    });
    const send = (event: string, data: unknown) => {
      res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
      if (res.writableLength > MAX_BUFFERED) close();
    };

    // Changes during the snapshot query wait in `early` so none is lost or sent before it.
    let early: LiveRecord[] | null = [];
    const unsubscribe = live.subscribe((r) => {
      if (early) return void early.push(r);
      const v = pushed(r);
      if (v) send(liveEvents.state, v);
    });
    const heartbeat = setInterval(() => {
      void (async () => {
        if (!(await findLiveSession(db, tokenHash, life))) {
          send(liveEvents.expired, { message: sessionMessages.invalidToken });
          return close();
        }
        res.write(': ping\n\n');
      })().catch((err: unknown) => request.log.warn({ err }, 'live heartbeat failed'));
    }, HEARTBEAT_MS);
    let closed = false;
    function close() {
      if (closed) return;
      closed = true;
      clearInterval(heartbeat);
      unsubscribe();
      open.delete(close);
      res.end();
    }
    open.add(close);
    res.on('close', close);

    res.write('retry: 5000\n\n');
    try {
      const states = await listLatestStates(db, scope === null ? null : [...terminals.keys()], scope);
      send(liveEvents.snapshot, { states: states.flatMap((s) => visible(s) ?? []) });
    } catch (err) {
      request.log.warn({ err }, 'live snapshot failed');
      return close();
    }
    const pending = early;
    early = null;
    for (const r of pending) {
      const v = pushed(r);
      if (v) send(liveEvents.state, v);
    }
  });
}
