import type { LinkProtocol, TerminalTakeoverMode } from '@fleet/contract';
import type { Db } from '../../db/database.js';
import type { LiveHub } from '../../live/live-hub.js';
import { gl200Protocol } from './gl200-link.js';
import { gps103Protocol } from './gps103-link.js';
import { gt06Protocol } from './gt06-link.js';
import { h02Protocol } from './h02-link.js';
import { jt808Protocol } from './jt808-link.js';
import { LinkGateway, type LinkLog } from './link-gateway.js';
import { startLinkListener, type LinkListener, type LinkProtocolHandler } from './link-listener.js';
import { teltonikaProtocol } from './teltonika-link.js';

/** Every TCP protocol's connection handler. */
export const linkHandlers: Record<LinkProtocol, LinkProtocolHandler> = {
  teltonika: teltonikaProtocol,
  gt06: gt06Protocol,
  jt808: jt808Protocol,
  h02: h02Protocol,
  gps103: gps103Protocol,
  gl200: gl200Protocol,
};

export interface TerminalLinks {
  gateway: LinkGateway;
  /** The listeners' ports; null when off (port 0 in the configuration) or not opened. */
  teltonikaPort: number | null;
  gt06Port: number | null;
  /** Every protocol's port, the same way. */
  ports: Record<LinkProtocol, number | null>;
  stop(): Promise<void>;
}

export interface TerminalLinksOptions {
  db: Db;
  host: string;
  publicUrl: string;
  /** 0 = off. */
  teltonikaPort: number;
  gt06Port: number;
  /** 0 or absent = off. */
  jt808Port?: number;
  h02Port?: number;
  gps103Port?: number;
  gl200Port?: number;
  /** TERMINAL_TAKEOVER: a second login for a terminal with a live link is refused (default) or replaces it. */
  takeover?: TerminalTakeoverMode;
  live: LiveHub;
  log: LinkLog & { error(obj: object, msg: string): void };
  pollMs?: number;
}

/**
 * The TCP listeners of the terminal protocols (TELTONIKA_PORT, GT06_PORT,
 * JT808_PORT, H02_PORT, GPS103_PORT, GL200_PORT), one gateway behind them all.
 * A port already taken is logged loudly and the server goes on without it, as
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
  const open = async (handler: LinkProtocolHandler, port: number | undefined): Promise<LinkListener | undefined> => {
    if (!port) return undefined;
    try {
      return await startLinkListener(gateway, handler, { port, host: opts.host });
    } catch (err) {
      opts.log.error({ err, port }, `${handler.name} port could not be opened`);
      return undefined;
    }
  };
  const wanted: Record<LinkProtocol, number | undefined> = {
    teltonika: opts.teltonikaPort,
    gt06: opts.gt06Port,
    jt808: opts.jt808Port,
    h02: opts.h02Port,
    gps103: opts.gps103Port,
    gl200: opts.gl200Port,
  };
  const listeners = new Map<LinkProtocol, LinkListener>();
  for (const [protocol, port] of Object.entries(wanted) as [LinkProtocol, number | undefined][]) {
    const listener = await open(linkHandlers[protocol], port);
    if (listener) listeners.set(protocol, listener);
  }
  const ports = Object.fromEntries(
    (Object.keys(wanted) as LinkProtocol[]).map((p) => [p, listeners.get(p)?.port ?? null]),
  ) as Record<LinkProtocol, number | null>;
  return {
    gateway,
    teltonikaPort: ports.teltonika,
    gt06Port: ports.gt06,
    ports,
    stop: async () => {
      await gateway.stop();
      for (const listener of listeners.values()) await listener.close();
    },
  };
}
