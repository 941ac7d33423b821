import type { Server } from 'node:http';
import type { FastifyHttpOptions, FastifyServerOptions } from 'fastify';
import type { Config } from '../config.js';

/**
 * The socket-level limits of config.ts, so a slow or stalled client cannot
 * hold a connection (and the memory of its half-sent body) for long:
 * - connectionTimeout: a socket with no traffic either way is closed;
 * - requestTimeout: headers and body must have arrived within it (a body
 *   trickled a byte at a time is cut off too), answered 408 and closed;
 * - headersTimeout: the headers must have arrived within it;
 * - keepAliveTimeout: an idle keep-alive connection is closed.
 * Node checks the request and header timeouts on an interval, at most 1 s here
 * (its default is 30 s, which would let a stalled client stay that much longer).
 */
export function serverOptions(config: Config): FastifyHttpOptions<Server> {
  const checkEvery = Math.max(50, Math.min(1000, Math.floor(config.HEADERS_TIMEOUT_MS / 4)));
  return {
    connectionTimeout: config.CONNECTION_TIMEOUT_MS,
    requestTimeout: config.REQUEST_TIMEOUT_MS,
    keepAliveTimeout: config.KEEP_ALIVE_TIMEOUT_MS,
    http: {
      requestTimeout: config.REQUEST_TIMEOUT_MS,
      headersTimeout: config.HEADERS_TIMEOUT_MS,
      connectionsCheckingInterval: checkEvery,
    },
    trustProxy: trustProxy(config.TRUST_PROXY),
  };
}

/**
 * A hop count becomes "trust the first n addresses from our side" (proxy-addr
 * numbers the socket's peer 0, then X-Forwarded-For from its end), so the
 * client's address is the one the outermost trusted proxy appended and entries
 * a client wrote itself are never read. Fastify alone would trust no hop at all
 * for a number. Addresses and CIDRs go to Fastify as they are.
 */
function trustProxy(setting: Config['TRUST_PROXY']): FastifyServerOptions['trustProxy'] {
  if (typeof setting !== 'number') return setting;
  const hops = setting;
  return (_address: string, hop: number) => hop < hops;
}
