import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { OSMAND_PATH } from '@fleet/contract';
import type { FastifyInstance } from 'fastify';

export interface OsmandListener {
  port: number;
  close(): Promise<void>;
}

const BODY_LIMIT = 64 * 1024;
/** Headers an OsmAnd client's request keeps on its way to the route; nothing that could claim another address. */
const PASSED_HEADERS = ['content-type', 'user-agent'] as const;

/**
 * OSMAND_PORT (docs/device-protocol.md §10): the Traccar Client app wants its server URL as
 * `http://host:5055/<password>`, so this port answers `GET|POST /<password>` by handing the
 * request to the main app's `/device/osmand/<password>` (osmand.routes.ts) as it is: one
 * implementation, the same limits, the client's own address for the authentication limits.
 */
export async function startOsmandListener(
  app: FastifyInstance,
  opts: { port: number; host: string; timeoutMs: number },
): Promise<OsmandListener> {
  const server = createServer((req, res) => void forward(app, req, res));
  server.requestTimeout = opts.timeoutMs;
  server.headersTimeout = Math.min(opts.timeoutMs, 10_000);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

async function forward(app: FastifyInstance, req: IncomingMessage, res: ServerResponse) {
  const url = new URL(req.url ?? '/', 'http://osmand.invalid');
  const segments = url.pathname.split('/').filter(Boolean);
  if (segments.length !== 1 || (req.method !== 'GET' && req.method !== 'POST')) {
    return answer(res, segments.length !== 1 ? 404 : 405, {
      code: segments.length !== 1 ? 'NOT_FOUND' : 'METHOD_NOT_ALLOWED',
    });
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > BODY_LIMIT) return answer(res, 413, { code: 'PAYLOAD_TOO_LARGE' }, true);
    chunks.push(chunk as Buffer);
  }
  const headers = Object.fromEntries(PASSED_HEADERS.flatMap((h) => (req.headers[h] ? [[h, req.headers[h]]] : [])));
  try {
    const out = await app.inject({
      method: req.method,
      url: `${OSMAND_PATH}/${segments[0]}${url.search}`,
      headers,
      payload: chunks.length ? Buffer.concat(chunks) : undefined,
      remoteAddress: req.socket.remoteAddress,
    });
    const type = out.headers['content-type'];
    res.writeHead(out.statusCode, {
      ...(type ? { 'content-type': String(type) } : {}),
      'cache-control': 'no-store',
      ...(out.headers['retry-after'] ? { 'retry-after': String(out.headers['retry-after']) } : {}),
      ...(out.headers.connection === 'close' ? { connection: 'close' } : {}),
    });
    res.end(out.rawPayload);
  } catch (err) {
    app.log.error({ err }, 'OsmAnd listener could not forward a request');
    answer(res, 500, { code: 'INTERNAL_SERVER_ERROR' });
  }
}

function answer(res: ServerResponse, status: number, body: object, close = false) {
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    ...(close ? { connection: 'close' } : {}),
  });
  res.end(JSON.stringify(body));
}
