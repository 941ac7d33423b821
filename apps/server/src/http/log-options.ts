import type { FastifyRequest, FastifyServerOptions } from 'fastify';

/** Query parameters whose values are secrets: reset tokens (`/password_reset?token=`), live tickets, anything like them. */
const SECRET_QUERY = /([?&][^=&#]*(?:token|ticket|password|secret|otp|key)[^=&#]*=)[^&#]*/gi;
export const REDACTED = '[REDACTED]';

/** The URL as it may be logged: the values of secret-looking query parameters replaced. */
export const redactUrl = (url: string) => url.replace(SECRET_QUERY, `$1${REDACTED}`);

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
  const pretty = !stream && format === 'pretty';
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
