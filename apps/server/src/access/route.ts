import {
  fieldErrors,
  totpMessages,
  validationMessages,
  type Call,
  type Capabilities,
  type CallResult,
} from '@fleet/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { createAccess, type Access } from './access.js';
import { findSession, touchSession, type SessionLifetimes, type SessionRow } from '../sessions/session.repository.js';
import { hashToken } from '../sessions/token.js';
import type { AppContext, AuthedActor } from '../http/context.js';
import { AppError, badRequest, unauthorized } from '../http/errors.js';
import { findUnstorableInput } from '../http/input-guard.js';

interface HandlerArgs<B> {
  body: B;
  request: FastifyRequest;
}
type Public<C extends Call> = {
  auth: 'public';
  handler: (args: HandlerArgs<z.output<C['request']>>) => Promise<CallResult<C>>;
};
type Authed<C extends Call> = {
  auth: 'user';
  /** Which capability of the permission matrix the call needs; omitted means any signed-in user. */
  allow?: (caps: Capabilities) => boolean;
  /** Open to a session that must set up TOTP first (its company requires it); every other call is 403 TOTP_SETUP_REQUIRED. */
  duringTotpSetup?: true;
  /** `access` is what the caller may see and do (access/access.ts). */
  handler: (args: HandlerArgs<z.output<C['request']>> & { access: Access }) => Promise<CallResult<C>>;
};

const bearer = (request: FastifyRequest) => {
  const h = request.headers.authorization;
  return h?.startsWith('Bearer ') ? h.slice(7).trim() : undefined;
};

/**
 * Resolves the token of a request to its account, role and company scope, or throws 401; an account
 * whose company requires TOTP and that has none gets 403 TOTP_SETUP_REQUIRED unless the call is part
 * of setting it up.
 */
export async function authenticate(
  ctx: AppContext,
  request: FastifyRequest,
  opts: { duringTotpSetup?: boolean } = {},
): Promise<AuthedActor> {
  const token = bearer(request);
  if (!token || token.length > 256) throw unauthorized();
  return actorOfSession(ctx, hashToken(token), opts);
}

/** The signed-in actor of a session's token hash (authenticate's rule; the live stream's ticket names one). */
export async function actorOfSession(
  ctx: AppContext,
  tokenHash: string,
  opts: { duringTotpSetup?: boolean } = {},
): Promise<AuthedActor> {
  const cache = ctx.sessions;
  let session = cache?.get(tokenHash, sessionLifetimes(ctx));
  if (!session) {
    const mark = cache?.mark() ?? 0;
    session = await findSession(ctx.db, tokenHash, sessionLifetimes(ctx));
    if (!session) throw unauthorized();
    cache?.put(session, mark);
  }
  if (await touchSession(ctx.db, session)) cache?.touched(tokenHash, new Date());
  if (session.totp_setup_required && !opts.duringTotpSetup)
    throw new AppError(403, 'TOTP_SETUP_REQUIRED', totpMessages.setupRequired);
  return actorOf(session);
}

/** A session row as the actor it signs in (what `Access` is made from). */
export const actorOf = (session: SessionRow): AuthedActor => ({
  account_id: session.account_id,
  name: session.name,
  role: session.role,
  company_id: session.company_id,
  engine_control: session.engine_control,
  stepped_up_until: session.stepped_up_until === null ? null : new Date(session.stepped_up_until),
  session,
});

export const sessionLifetimes = (ctx: AppContext): SessionLifetimes => ({
  idleMinutes: ctx.config.SESSION_IDLE_MINUTES,
  maxHours: ctx.config.SESSION_MAX_HOURS,
});

/**
 * The `Access` of a request that is not a contract call (the CSV export, the report download): the
 * same token check and the same scope as `registerCall` gives its handlers.
 */
export async function accessOf(
  ctx: AppContext,
  request: FastifyRequest,
  opts: { duringTotpSetup?: boolean } = {},
): Promise<Access> {
  return createAccess(ctx.db, await authenticate(ctx, request, opts));
}

/**
 * Registers one call of the contract: POST, token check, permission check,
 * request validated by the contract schema; the handler's result is parsed by the response
 * schema, which strips it to the contract and shapes it for the wire (timestamps to ISO, wire.ts).
 * Every answer is parsed: taking a result that already had the wire's form as it came saved nothing
 * the bench could see (bench/README.md, Measurements behind the code: Lists).
 */
export function registerCall<C extends Call>(
  app: FastifyInstance,
  ctx: AppContext,
  call: C,
  opts: Public<C> | Authed<C>,
) {
  app.post(call.path, async (request) => {
    const access =
      opts.auth === 'user'
        ? await accessOf(ctx, request, { duringTotpSetup: opts.duringTotpSetup === true })
        : undefined;
    if (access && opts.auth === 'user' && opts.allow) access.require(opts.allow);
    const unstorable = findUnstorableInput(request.body);
    if (unstorable !== undefined) throw badRequest(undefined, { [unstorable]: validationMessages.invalid });
    const parsed = call.request.safeParse(request.body ?? {});
    if (!parsed.success) throw badRequest(undefined, fieldErrors(parsed.error));
    const body = parsed.data as z.output<C['request']>;
    // A branch manager's groups: any vehicle the call names outside them is not found.
    if (access) await access.seeVehiclesOf(body);
    const result =
      opts.auth === 'user'
        ? await opts.handler({ body, request, access: access! })
        : await opts.handler({ body, request });
    return call.response.parse(result) as z.output<C['response']>;
  });
}
