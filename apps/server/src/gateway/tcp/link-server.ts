import type { TerminalTakeoverMode } from '@fleet/contract';
import type { Db } from '../../db/database.js';
import type { LiveHub } from '../../live/live-hub.js';
import { gt06Protocol } from './gt06-link.js';
import { LinkGateway, type LinkLog } from './link-gateway.js';
import { startLinkListener, type LinkListener, type LinkProtocolHandler } from './link-listener.js';
import { teltonikaProtocol } from './teltonika-link.js';

export interface TerminalLinks {
  gateway: LinkGateway;
  /** The listeners' ports; null when off (port 0 in the configuration) or not opened. */
  teltonikaPort: number | null;
  gt06Port: number | null;
  stop(): Promise<void>;
}

export interface TerminalLinksOptions {
  db: Db;
  host: string;
  publicUrl: string;
  /** 0 = off. */
  teltonikaPort: number;
  gt06Port: number;
  /** TERMINAL_TAKEOVER: a second login for a terminal with a live link is refused (default) or replaces it. */
  takeover?: TerminalTakeoverMode;
  live: LiveHub;
  log: LinkLog & { error(obj: object, msg: string): void };
  pollMs?: number;
}

/**
 * The TCP listeners of the binary protocols (TELTONIKA_PORT, GT06_PORT). A
 * port already taken is logged loudly and the server goes on without it, as
 * with OSMAND_PORT.
 */
export async function startTerminalLinks(opts: TerminalLinksOptions): Promise<TerminalLinks> {
  const gateway = new LinkGateway(opts.db, {
    publicUrl: opts.publicUrl,
    log: opts.log,
    pollMs: opts.pollMs,
    takeover: opts.takeover,
    committed: (states) =>
      opts.live.publishAll(states).catch((err: unknown) => opts.log.warn({ err }, 'live publish failed')),
  });
  const open = async (handler: LinkProtocolHandler, port: number): Promise<LinkListener | undefined> => {
    if (port === 0) return undefined;
    try {
      return await startLinkListener(gateway, handler, { port, host: opts.host });
    } catch (err) {
      opts.log.error({ err, port }, `${handler.name} port could not be opened`);
      return undefined;
    }
  };
  const teltonika = await open(teltonikaProtocol, opts.teltonikaPort);
  const gt06 = await open(gt06Protocol, opts.gt06Port);
  return {
    gateway,
    teltonikaPort: teltonika?.port ?? null,
    gt06Port: gt06?.port ?? null,
    stop: async () => {
      await gateway.stop();
      await teltonika?.close();
      await gt06?.close();
    },
  };
}
