import { createServer, type AddressInfo, type Socket } from 'node:net';
import type { LinkGateway } from './link-gateway.js';

/**
 * A TCP listener for one binary protocol. Per connection: bytes are buffered
 * and cut into frames by the protocol's session, each frame handled to the
 * end (stored, acknowledged) before the next is read, so acknowledgements
 * keep the device's order. Whatever is not a frame of the protocol closes the
 * connection; the limits below close slow or silent ones.
 */
export interface Step {
  /** Bytes the frame took. */
  size: number;
  handle?: () => Promise<void>;
}

export interface Session {
  readonly loggedIn: boolean;
  /** The next frame at the start of `buf`; null when it is not complete. Throws when it cannot be one. */
  next(buf: Buffer): Step | null;
  /** The connection ended. */
  closed(): Promise<void>;
}

export interface Connection {
  readonly gateway: LinkGateway;
  readonly address: string | undefined;
  write(data: Buffer): void;
  close(): void;
}

export interface LinkProtocolHandler {
  name: string;
  maxFrame: number;
  open(conn: Connection): Session;
}

export interface LinkListenerOptions {
  port: number;
  host: string;
  /** The login must arrive within this (ms). */
  loginTimeoutMs?: number;
  /** A connection with no traffic for this long is closed (devices send at least a heartbeat). */
  idleTimeoutMs?: number;
  /** A frame that has begun must be complete within this. */
  frameTimeoutMs?: number;
}

export interface LinkListener {
  port: number;
  close(): Promise<void>;
}

export async function startLinkListener(
  gateway: LinkGateway,
  handler: LinkProtocolHandler,
  opts: LinkListenerOptions,
): Promise<LinkListener> {
  const sockets = new Set<Socket>();
  const endings = new Set<Promise<void>>();
  const log = gateway.log;

  const serve = (socket: Socket) => {
    sockets.add(socket);
    socket.setNoDelay(true);
    let buf: Buffer = Buffer.alloc(0);
    let chain = Promise.resolve();
    let partial: NodeJS.Timeout | undefined;
    const address = socket.remoteAddress;
    const drop = (why: string, extra: object = {}) => {
      if (!socket.destroyed) log.warn({ protocol: handler.name, ip: address, ...extra }, `connection closed: ${why}`);
      socket.destroy();
    };
    const session = handler.open({
      gateway,
      address,
      write: (data) => {
        if (!socket.destroyed) socket.write(data);
      },
      close: () => socket.destroy(),
    });
    const login = setTimeout(() => {
      if (!session.loggedIn) drop('no login');
    }, opts.loginTimeoutMs ?? 30_000);
    socket.setTimeout(opts.idleTimeoutMs ?? 5 * 60_000, () => drop('idle'));

    const drain = async () => {
      while (!socket.destroyed && buf.length > 0) {
        let step: Step | null;
        try {
          step = session.next(buf);
        } catch (err) {
          return drop('not a frame', { reason: (err as Error).message });
        }
        if (!step) break;
        buf = buf.subarray(step.size);
        try {
          await step.handle?.();
        } catch (err) {
          // Not stored (a database failure, a frame that decodes to nothing sensible): unacknowledged, the device resends.
          return drop('frame not handled', { err });
        }
      }
      if (buf.length === 0) {
        clearTimeout(partial);
        partial = undefined;
      } else partial ??= setTimeout(() => drop('frame incomplete'), opts.frameTimeoutMs ?? 20_000);
      if (socket.isPaused() && !socket.destroyed) socket.resume();
    };

    socket.on('data', (chunk: Buffer) => {
      buf = buf.length ? Buffer.concat([buf, chunk]) : chunk;
      if (buf.length > handler.maxFrame * 2) socket.pause();
      chain = chain.then(drain);
    });
    socket.on('error', () => undefined);
    socket.on('close', () => {
      sockets.delete(socket);
      clearTimeout(login);
      clearTimeout(partial);
      const ending = chain
        .then(() => session.closed())
        .catch((err: unknown) => log.warn({ err, protocol: handler.name }, 'connection end not recorded'));
      endings.add(ending);
      void ending.finally(() => endings.delete(ending));
    });
  };

  const server = createServer(serve);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      await closed;
      await Promise.all([...endings]);
    },
  };
}
