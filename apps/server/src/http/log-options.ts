import { DEVICE_BATCH_PATH, OSMAND_PATH } from '@fleet/contract';
import { createRequire } from 'node:module';
import type { FastifyRequest, FastifyServerOptions } from 'fastify';

/** Query parameters whose values are secrets: reset tokens (`/password_reset?token=`), live tickets, anything like them. */
const SECRET_QUERY = /([?&][^=&#]*(?:token|ticket|password|secret|otp|key)[^=&#]*=)[^&#]*/gi;
export const REDACTED = '[REDACTED]';

/** Paths under /device/ that carry no secret: logged as they are. */
const OPEN_DEVICE_PATHS = new Set([DEVICE_BATCH_PATH]);
/** An OsmAnd client's query (its IMEI as `id`, `deviceid` or `device_id`): the path it came to may be its password. */
const OSMAND_QUERY = /[?&](?:id|deviceid|device_id)=/i;

/**
 * The path as the router could read it, to judge it (never logged): escapes decoded, lower case,
 * backslashes and repeated slashes as one slash, `.` and `..` segments resolved.
 */
function canonicalPath(path: string): string {
  let text = path;
  try {
    text = decodeURIComponent(path);
  } catch {
    // A malformed escape: judged as it came.
  }
  const out: string[] = [];
  for (const segment of text.toLowerCase().replace(/\\/g, '/').split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') out.pop();
    else out.push(segment);
  }
  return `/${out.join('/')}`;
}

/**
 * The URL as it may be logged. A terminal's secret may be in its path (OsmAnd's password is the last
 * part of `/device/osmand/<password>`, and of any path of a client pointed at the wrong URL), so the
 * path is judged by its prefix before any route is found: anything under /device/ but the paths known
 * to carry no secret, and any path an OsmAnd query came to, is logged as its prefix and [REDACTED],
 * whatever slashes, case or escapes it was written with. Secret-looking query values are replaced too.
 */
export function redactUrl(url: string): string {
  const cut = url.search(/[?#]/);
  const path = cut < 0 ? url : url.slice(0, cut);
  const rest = (cut < 0 ? '' : url.slice(cut)).replace(SECRET_QUERY, `$1${REDACTED}`);
  const canonical = canonicalPath(path);
  if (canonical === OSMAND_PATH || canonical.startsWith(`${OSMAND_PATH}/`)) return `${OSMAND_PATH}/${REDACTED}${rest}`;
  if (canonical.startsWith('/device/') && !OPEN_DEVICE_PATHS.has(canonical)) return `/device/${REDACTED}${rest}`;
  if (OSMAND_QUERY.test(rest) && canonical !== '/') return `/${REDACTED}${rest}`;
  return path + rest;
}

/** Secrets anywhere a log call might put them: credential headers, and password and token fields at the top or one level down. */
const SECRET_FIELDS = [
  'password',
  'current_password',
  'new_password',
  'password_confirm',
  'token',
  'ticket',
  'otp',
  'secret',
];
const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["proxy-authorization"]',
  'headers.authorization',
  'headers.cookie',
  'res.headers["set-cookie"]',
  ...SECRET_FIELDS.flatMap((f) => [f, `*.${f}`]),
];

/**
 * pino-pretty is a development dependency: an installation without it (`npm ci --omit=dev`) writes JSON
 * lines even when LOG_FORMAT=pretty, rather than failing to start.
 */
const prettyInstalled = (() => {
  try {
    createRequire(import.meta.url).resolve('pino-pretty');
    return true;
  } catch {
    return false;
  }
})();

/**
 * Pino's options for every log line of the server: Fastify's request
 * serializer with the URL's secrets removed (a reset token in a log gives the
 * reader the account), and `redact` for headers and bodies logged by hand.
 */
export function logOptions(
  level: string,
  stream?: { write(line: string): void },
  format: 'pretty' | 'json' = 'json',
): NonNullable<FastifyServerOptions['logger']> {
  // pretty: pino-pretty in a worker thread (development); json: one object per line (production's collectors).
  const pretty = !stream && format === 'pretty' && prettyInstalled;
  return {
    level,
    ...(stream ? { stream } : {}),
    ...(pretty
      ? { transport: { target: 'pino-pretty', options: { translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' } } }
      : {}),
    redact: { paths: REDACT_PATHS, censor: REDACTED },
    serializers: {
      req: (request: FastifyRequest) => ({
        method: request.method,
        url: redactUrl(request.url),
        host: request.host,
        remoteAddress: request.ip,
        remotePort: request.socket?.remotePort,
      }),
    },
  };
}
