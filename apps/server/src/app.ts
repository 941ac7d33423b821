import { existsSync } from 'node:fs';
import path from 'node:path';
import helmet from 'helmet';
import fastifyStatic from '@fastify/static';
import { errorMessages, type ApiError } from '@fleet/contract';
import Fastify, { type FastifyInstance } from 'fastify';
import { registerAccountRoutes } from './account/account.routes.js';
import { registerPasswordByTokenRoute } from './account/password-by-token.routes.js';
import { registerAreaRoutes } from './areas/areas.routes.js';
import { registerAuditRoutes } from './audit/audit.routes.js';
import { registerAuthRoutes } from './auth/auth.routes.js';
import { registerTotpRoutes } from './auth/totp.routes.js';
import { registerClientConfigRoutes } from './client-config/client-config.routes.js';
import { registerCarRoutes } from './car/car.routes.js';
import { registerGroupRoutes } from './groups/groups.routes.js';
import { registerCarUserRoutes } from './car-user/car-user.routes.js';
import { registerCompanyRoutes } from './company/company.routes.js';
import { registerTerminalPolicyRoutes } from './company/terminal-policy.routes.js';
import { registerDeviceRoutes } from './device/device.routes.js';
import { repoRoot, type Config } from './config.js';
import type { Db } from './db/database.js';
import { registerEngineRoutes } from './engine/engine.routes.js';
import { registerGatewayRoutes } from './gateway/gateway.routes.js';
import type { AppContext } from './http/context.js';
import { registerErrorHandler } from './http/error-handler.js';
import { registerJsonBodyParser } from './http/json-body.js';
import { logOptions } from './http/log-options.js';
import { serverOptions } from './http/server-options.js';
import { createLiveHub, type LiveHub } from './live/live-hub.js';
import { registerLiveRoutes } from './live/live.routes.js';
import { registerRegistrationRoutes } from './registration/registration.routes.js';
import { registerMailRoutes } from './mail/mail.routes.js';
import { registerNotifyRoutes } from './notify/notify.routes.js';
import { registerPushRoutes } from './push/push.routes.js';
import { registerPasswordResetRoutes } from './password-reset/password-reset.routes.js';
import { registerOperations } from './ops/ops.js';
import { registerExportRoutes } from './telemetry/export.routes.js';
import { registerReportRoutes } from './reports/reports.routes.js';
import { registerTelemetryRoutes } from './telemetry/telemetry.routes.js';
import { registerWebhookRoutes } from './webhooks/webhook.routes.js';
import { registerTripRoutes } from './trips/trips.routes.js';
import { registerZoneRoutes } from './zones/zones.routes.js';
import { registerAlertRoutes } from './alerts/alerts.routes.js';
import { registerGeocodeRoutes } from './geocode/geocode.routes.js';
import { SessionCache } from './sessions/session-cache.js';
import { TerminalCache } from './credentials/terminal-cache.js';
import type { SessionRow } from './sessions/session.repository.js';

export interface BuildOptions {
  db: Db;
  config: Config;
  /** Folder of the built console; served with an SPA fallback when it exists. */
  webRoot?: string;
  logger?: boolean;
  /** Where log lines go instead of stdout (the tests read them). */
  logStream?: LogStream;
  /** The live push; made here when not given (startServer shares one with the TCP terminal links). */
  live?: LiveHub;
  /** Whether signed-in calls and terminals use the in-process caches; unset: config.SESSION_CACHE (see config.ts). */
  sessionCache?: boolean;
}

/** A destination for pino's log lines, one JSON text per call. */
export interface LogStream {
  write(line: string): void;
}

export const defaultWebRoot = path.join(repoRoot, 'apps/web/dist');

/** Where terminals report (device.routes.ts, gateway.routes.ts, osmand.routes.ts): never a page of the console. */
const DEVICE_PREFIX = '/device/';
/** Strict-Transport-Security in production: helmet's default (a year, subdomains), written once for both header sets. */
const HSTS = { maxAge: 31_536_000, includeSubDomains: true };

const tileOrigin = (url: string) => {
  try {
    return new URL(url.replace(/\{[a-z]\}/g, 'a')).origin;
  } catch {
    return undefined;
  }
};

export async function buildApp(opts: BuildOptions): Promise<FastifyInstance> {
  const { config } = opts;
  const app = Fastify({
    ...serverOptions(config),
    logger: opts.logger === false ? false : logOptions(config.LOG_LEVEL, opts.logStream, config.logFormat),
    bodyLimit: 1024 * 1024,
  });
  registerJsonBodyParser(app);
  // Signed-in calls find their session in memory; changes to sessions clear it on every instance (sessions/session-cache.ts).
  const cached = opts.sessionCache ?? config.SESSION_CACHE ?? config.NODE_ENV !== 'test';
  const sessions = cached ? new SessionCache<SessionRow>(opts.db, app.log) : undefined;
  if (sessions) app.addHook('onClose', () => sessions.close());
  // Reporting terminals find their row and their limit state in memory the same way (credentials/terminal-cache.ts).
  const terminals = cached ? new TerminalCache(opts.db, app.log) : undefined;
  if (terminals) app.addHook('onClose', () => terminals.close());
  const ctx: AppContext = {
    db: opts.db,
    config,
    ...(sessions ? { sessions } : {}),
    ...(terminals ? { terminals } : {}),
  };
  const tiles = tileOrigin(config.TILE_URL);

  // The security headers (CSP and the rest), built once: @fastify/helmet rebuilt helmet's middleware, CSP
  // string included, on every request, a visible share of a gateway batch's server time (bench/README.md, Measurements behind the code: Gateway).
  const securityHeaders = helmet({
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:', ...(tiles ? [tiles] : [])],
        connectSrc: ["'self'"],
        frameAncestors: ["'none'"],
        upgradeInsecureRequests: null,
      },
    },
    crossOriginEmbedderPolicy: false,
    hsts: config.production ? HSTS : false,
  });
  // A terminal's answer (the routes under /device/) is never a document a browser renders: it gets the headers
  // an API needs (OWASP's REST cheat sheet: no content, no framing, no sniffing, no caching), not the console's
  // dozen, which were most of a batch answer's bytes and a tenth of its HTTP time (bench/README.md, Measurements behind the code: Gateway).
  const deviceHeaders = {
    'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'referrer-policy': 'no-referrer',
    'cache-control': 'no-store',
    ...(config.production
      ? { 'strict-transport-security': `max-age=${HSTS.maxAge}${HSTS.includeSubDomains ? '; includeSubDomains' : ''}` }
      : {}),
  };
  app.addHook('onRequest', (request, reply, done) => {
    if (request.routeOptions.url?.startsWith(DEVICE_PREFIX)) {
      reply.headers(deviceHeaders);
      return done();
    }
    securityHeaders(request.raw, reply.raw, (err?: unknown) => done(err instanceof Error ? err : undefined));
  });
  registerErrorHandler(app);
  await registerOperations(app, ctx);
  registerAuthRoutes(app, ctx);
  registerTotpRoutes(app, ctx);
  registerDeviceRoutes(app, ctx);
  registerCarUserRoutes(app, ctx);
  registerCarRoutes(app, ctx);
  registerGroupRoutes(app, ctx);
  registerRegistrationRoutes(app, ctx);
  registerAccountRoutes(app, ctx);
  registerCompanyRoutes(app, ctx);
  registerTerminalPolicyRoutes(app, ctx);
  registerClientConfigRoutes(app, ctx);
  // Terminals report through the gateway, which feeds the live push (PostgreSQL NOTIFY when instances share a server).
  const live = opts.live ?? createLiveHub(ctx.db, app.log);
  app.addHook('onClose', () => live.close());
  registerGatewayRoutes(app, ctx, live);
  registerTelemetryRoutes(app, ctx, live);
  registerExportRoutes(app, ctx);
  registerLiveRoutes(app, ctx, live);
  registerEngineRoutes(app, ctx);
  registerAreaRoutes(app, ctx);
  registerNotifyRoutes(app, ctx);
  registerPushRoutes(app, ctx);
  registerMailRoutes(app, ctx);
  registerPasswordResetRoutes(app, ctx);
  registerPasswordByTokenRoute(app, ctx);
  registerAuditRoutes(app, ctx);
  registerWebhookRoutes(app, ctx);
  registerTripRoutes(app, ctx);
  registerZoneRoutes(app, ctx);
  registerAlertRoutes(app, ctx);
  registerGeocodeRoutes(app, ctx);
  registerReportRoutes(app, ctx);

  const webRoot = opts.webRoot;
  const hasWeb = !!webRoot && existsSync(path.join(webRoot, 'index.html'));
  if (hasWeb) {
    await app.register(fastifyStatic, {
      root: webRoot,
      wildcard: false,
      index: false,
      // The build writes .br and .gz copies (scripts/precompress.mjs): sent as they are, with Vary: accept-encoding.
      preCompressed: true,
      setHeaders: (res, file) => {
        res.header(
          'cache-control',
          file.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache',
        );
      },
    });
  }
  app.setNotFoundHandler((request, reply) => {
    const isApi = request.url.startsWith('/api/') || request.url.startsWith(DEVICE_PREFIX);
    // A missing build asset is a 404, never the console's HTML (a stale tab reloads on the failed chunk).
    if (hasWeb && request.method === 'GET' && !isApi && !request.url.startsWith('/assets/')) {
      return reply.header('cache-control', 'no-cache').sendFile('index.html');
    }
    // A HEAD answer has no body (a static wildcard's HEAD route ends here too).
    if (request.method === 'HEAD') return reply.status(404).send();
    const body: ApiError = { code: 'NOT_FOUND', message: errorMessages.notFound };
    return reply.status(404).send(body);
  });
  return app;
}
