import { connect, type Socket } from 'node:net';
import type { TerminalTakeoverMode } from '@fleet/contract';
import { sql } from 'kysely';
import type { Db } from '../src/db/database.js';
import { LinkGateway } from '../src/gateway/tcp/link-gateway.js';
import type { DeviceAvl } from '../src/gateway/tcp/teltonika-device.js';
import { startLinkListener, type LinkListener, type LinkProtocolHandler } from '../src/gateway/tcp/link-listener.js';

/** Helpers of the binary-protocol tests: a gateway on free ports, and a device's socket. */
export interface LogLine {
  level: 'info' | 'warn' | 'error';
  obj: object;
  msg: string;
}

export function linkGateway(db: Db, pollMs = 100, takeover: TerminalTakeoverMode = 'refuse') {
  const lines: LogLine[] = [];
  const log = {
    info: (obj: object, msg: string) => void lines.push({ level: 'info', obj, msg }),
    warn: (obj: object, msg: string) => void lines.push({ level: 'warn', obj, msg }),
    error: (obj: object, msg: string) => void lines.push({ level: 'error', obj, msg }),
  };
  return { gateway: new LinkGateway(db, { publicUrl: 'http://localhost', log, pollMs, takeover }), lines };
}

export async function listen(
  gateway: LinkGateway,
  handler: LinkProtocolHandler,
  opts: { frameTimeoutMs?: number; loginTimeoutMs?: number } = {},
): Promise<LinkListener> {
  return startLinkListener(gateway, handler, { port: 0, host: '127.0.0.1', ...opts });
}

export async function setProtocol(db: Db, carDeviceId: string, protocol: string, ipaddr = '') {
  await sql`UPDATE devices SET protocol = ${protocol}, ipaddr = ${ipaddr} WHERE car_device_id = ${carDeviceId}`.execute(
    db,
  );
}

/** A device's connection: everything the server sent is kept in `received` until taken. */
export class DeviceSocket {
  received = Buffer.alloc(0);
  closed = false;
  private constructor(readonly socket: Socket) {
    socket.on('data', (chunk: Buffer) => {
      this.received = Buffer.concat([this.received, chunk]);
    });
    socket.on('close', () => {
      this.closed = true;
    });
    socket.on('error', () => undefined);
  }

  /** `from`: the source address (any 127.x.y.z is this machine), so a test can be two places at once. */
  static open(port: number, from?: string): Promise<DeviceSocket> {
    return new Promise((resolve, reject) => {
      const s = connect({ port, host: '127.0.0.1', localAddress: from }, () => resolve(new DeviceSocket(s)));
      s.once('error', reject);
    });
  }

  send(data: Buffer) {
    this.socket.write(data);
  }

  /** Waits until `n` bytes came, and takes them. */
  async take(n: number, timeoutMs = 5000): Promise<Buffer> {
    await until(() => this.received.length >= n || this.closed, timeoutMs);
    if (this.received.length < n)
      throw new Error(`expected ${n} bytes, got ${this.received.length} (closed: ${this.closed})`);
    const out = this.received.subarray(0, n);
    this.received = this.received.subarray(n);
    return out;
  }

  /** Waits for the server to close the connection. */
  async waitClosed(timeoutMs = 5000) {
    await until(() => this.closed, timeoutMs);
    return this.closed;
  }

  close() {
    this.socket.destroy();
  }
}

export async function until(check: () => boolean | Promise<boolean>, timeoutMs = 5000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * A Teltonika fix factory: each fix a second after the previous one (starting an hour ago, so none is in
 * the future), at Tokyo station, standing, with `base` and then `over` on top.
 */
export function fixes(base: Partial<DeviceAvl> = {}) {
  let clock = Date.now() - 3_600_000;
  return (over: Partial<DeviceAvl> = {}): DeviceAvl => ({
    time: new Date((clock += 1000)),
    lat: 35.6812,
    lng: 139.7671,
    speed: 0,
    ...base,
    ...over,
  });
}
