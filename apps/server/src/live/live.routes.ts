import {
  ALERT_LIVE_EVENT,
  LIVE_PATH,
  liveTopics,
  LIVE_TICKET_SECONDS,
  liveEvents,
  liveTicket,
  sessionMessages,
  type AlertLiveCount,
  type LiveState,
  type LiveTopic,
  type TelemetryState,
} from '@fleet/contract';
import { countUnacknowledged } from '../alerts/alerts.repository.js';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../http/context.js';
import { unauthorized } from '../http/errors.js';
import { createAccess, type Access } from '../access/access.js';
import { accessOf, actorOf, actorOfSession, registerCall, sessionLifetimes } from '../access/route.js';
import { listLatestStates, pushedStateOf, type LiveRecord } from '../telemetry/latest-state.repository.js';
import { findSession } from '../sessions/session.repository.js';
import { changeConcerns } from '../sessions/session-cache.js';
import type { LiveHub } from './live-hub.js';
import { createTicket, redeemTicket, visibleTerminals } from './live.repository.js';

const HEARTBEAT_MS = 25_000;
/** What a stream is opened under: a change to any of these ends it. */
const authorityOf = (s: {
  role: number;
  company_id: string | null;
  engine_control: boolean | null;
  session: { group_ids: string[] | null };
}) => `${s.role}/${s.company_id ?? ''}/${s.engine_control}/${s.session.group_ids?.join(',') ?? '*'}`;
/** A client this far behind is dropped; EventSource reconnects and gets a fresh snapshot. */
const MAX_BUFFERED = 1024 * 1024;
/** `?topics=states,alerts` (default: states): what the stream sends; unknown names are ignored. */
const topicsOf = (query: unknown): ReadonlySet<LiveTopic> => {
  const raw = (query as { topics?: unknown } | null)?.topics;
  if (typeof raw !== 'string') return new Set(['states']);
  return new Set(raw.split(',').filter((x): x is LiveTopic => (liveTopics as readonly string[]).includes(x)));
};

/**
 * Server-sent events of latest-state changes, limited to the vehicles the
 * caller may see: the snapshot as every read path shows it, each change by the
 * owner its record names (who had the terminal when it was stored), so a
 * terminal moved or a vehicle deleted while the stream is open stops reaching
 * the old company at once, and the new one gets no field group of the old
 * one's time. EventSource cannot send headers, so besides the usual
 * Authorization header it takes `?ticket=` from /api/live_ticket: single-use
 * and short-lived, so no long-lived token ends up in URLs and access logs.
 *
 * A stream lives as long as its session and the authority it was opened under
 * (role, company, engine right): `check` alone decides, whenever the session
 * channel names the session or its account (logout, password, deletion, role,
 * company, engine right, made on any instance or by SQL), when signals may
 * have been missed, and on every heartbeat. While a check runs, changes wait;
 * the hub delivers a session signal before any state published after it, so
 * nothing published after the change is pushed. A session that ended gets
 * `expired`; a changed authority just ends the stream (the client opens a new
 * one, scoped anew).
 */
export function registerLiveRoutes(app: FastifyInstance, ctx: AppContext, live: LiveHub) {
  const { db } = ctx;
  const life = sessionLifetimes(ctx);
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

  /** The stream's Access: by its ticket's session, else by the Authorization header (registerCall's rule either way). */
  const accessOfStream = async (request: FastifyRequest): Promise<Access> => {
    const ticket = (request.query as { ticket?: unknown }).ticket;
    if (typeof ticket === 'string' && ticket.length > 0 && ticket.length <= 256) {
      const tokenHash = await redeemTicket(db, ticket);
      if (!tokenHash) throw unauthorized();
      return createAccess(db, await actorOfSession(ctx, tokenHash));
    }
    return accessOf(ctx, request);
  };

  // No automatic HEAD: a HEAD of a stream got no answer at all (Node sends no headers before a body write).
  app.get(LIVE_PATH, { exposeHeadRoute: false }, async (request, reply) => {
    const access = await accessOfStream(request);
    const tokenHash = access.session.token_hash;
    const authority = authorityOf(access);
    const scope = access.company;
    const topics = topicsOf(request.query);
    const states = topics.has('states');
    // The snapshot reads as every read path does (listLatestStates); the vehicles are the ones of now.
    const terminals = states ? await visibleTerminals(db, scope, access.groups) : new Map<string, string | null>();
    const carIds = new Set(terminals.values());
    const visible = (s: TelemetryState): LiveState | null =>
      scope === null || terminals.has(s.car_data_id) ? { ...s, car_id: terminals.get(s.car_data_id) ?? null } : null;
    /** A change: the super admin's whole; a company's only while the terminal is on its vehicle, of its own time. */
    const pushed = (r: LiveRecord): LiveState | null => {
      // A group-limited account: only its groups' vehicles, as they were when the stream opened.
      if (access.groups !== null && !(r.owner_car_id !== null && carIds.has(r.owner_car_id))) return null;
      const state = pushedStateOf(r, scope);
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

    let closed = false;
    const push = (r: LiveRecord) => {
      const v = pushed(r);
      if (v) send(liveEvents.state, v);
    };
    // Changes wait while the snapshot is read (so none is lost or sent before it) and while the session is checked.
    let holds = 1;
    let held: LiveRecord[] = [];
    const release = () => {
      if (--holds > 0 || closed) return;
      const pending = held;
      held = [];
      for (const r of pending) push(r);
      if (alertsHeld) {
        alertsHeld = false;
        void recount();
      }
    };
    // The alert count: read again on every signal of the caller's company (one read at a time, the signals
    // meanwhile folded into one more), sent when it changed. Like states, it waits while the session is checked.
    let alertsHeld = false;
    let counted: number | null = null;
    let counting = false;
    let countAgain = false;
    const recount = async (): Promise<void> => {
      if (!topics.has('alerts') || closed) return;
      if (holds > 0) return void (alertsHeld = true);
      if (counting) return void (countAgain = true);
      counting = true;
      try {
        do {
          countAgain = false;
          const unacknowledged = await countUnacknowledged(db, access);
          if (!closed && holds === 0 && unacknowledged !== counted) {
            counted = unacknowledged;
            send(ALERT_LIVE_EVENT, { unacknowledged } satisfies AlertLiveCount);
          } else if (holds > 0) alertsHeld = true;
        } while (countAgain && !closed);
      } catch (err) {
        request.log.warn({ err }, 'live alert count failed');
      } finally {
        counting = false;
      }
    };
    /** Whether the stream may go on; if not, it is closed (`expired` when the session is gone). */
    const check = async (): Promise<boolean> => {
      holds++;
      try {
        // Read past the session cache: a change heard on the session channel must be seen now.
        const row = await findSession(db, tokenHash, life);
        const now = row && actorOf(row);
        if (closed) return false;
        if (now && authorityOf(now) === authority) return true;
        if (!now) send(liveEvents.expired, { message: sessionMessages.invalidToken });
        close();
        return false;
      } catch (err) {
        // Fails closed: the client reconnects and is checked afresh.
        request.log.warn({ err }, 'live session check failed');
        close();
        return false;
      } finally {
        release();
      }
    };
    const mine = { tokenHash, accountId: access.account_id };
    const unsubscribe = live.subscribe({
      state: (r) => {
        if (closed || !states) return;
        if (holds > 0) held.push(r);
        else push(r);
      },
      sessions: (payload) => {
        if (!closed && changeConcerns(payload, mine)) void check();
      },
      missed: () => {
        void check();
        void recount();
      },
      alerts: (company) => {
        if (scope === null || company === scope) void recount();
      },
    });
    const heartbeat = setInterval(() => {
      void check().then((open) => open && res.write(': ping\n\n'));
    }, HEARTBEAT_MS);
    function close() {
      if (closed) return;
      closed = true;
      clearInterval(heartbeat);
      unsubscribe();
      open.delete(close);
      held = [];
      res.end();
    }
    open.add(close);
    res.on('close', close);

    res.write('retry: 5000\n\n');
    // A change committed between the first read of the session and the subscription was not heard: read it again.
    void check();
    if (states)
      try {
        const snapshot = await listLatestStates(db, scope === null ? null : [...terminals.keys()], scope);
        if (closed) return;
        send(liveEvents.snapshot, { states: snapshot.flatMap((s) => visible(s) ?? []) });
      } catch (err) {
        request.log.warn({ err }, 'live snapshot failed');
        return close();
      }
    // The first count goes out once nothing holds the stream (after the snapshot and the first check).
    alertsHeld = topics.has('alerts');
    release();
  });
}
