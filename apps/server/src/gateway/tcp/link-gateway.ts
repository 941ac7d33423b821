import { createHash } from 'node:crypto';
import type { DeviceCommand, DeviceRecordInput, TelemetryState } from '@fleet/contract';
import type { Db } from '../../db/database.js';
import { subscribeCommands, type CommandSubscription } from '../../commands/command-signal.js';
import { takeLinkCommands } from '../../commands/terminal-commands.repository.js';
import { GroupCommit } from '../group-commit.js';
import type { IngestOutcome } from '../ingest.service.js';
import { findLinkTerminal, type LinkProtocol, type LinkTerminal, type LoginRefusal } from './link-terminals.js';

/**
 * What the Teltonika and GT06 listeners share: the login by IMEI, the store
 * (the JSON gateway's group commit, so the same logs, latest state,
 * notifications and live push), and the commands. A command is handed out by
 * the commands module (authority re-checked, expiry and deletion, a prohibit
 * held while the vehicle moves) and written to the terminal's open connection:
 * - right after the login;
 * - when it is made: the commands module's signal (a NOTIFY on PostgreSQL, so
 *   from any server instance; commands/command-signal.ts) names the terminal,
 *   and the open sockets here are looked up by IMEI;
 * - for a terminal with a prohibit held back, after each frame of it is stored
 *   (the vehicle may have stopped);
 * - every `pollMs` (30 s) for every connected terminal, and after the signal's
 *   connection was lost and is back: the safety net for a missed signal.
 * A terminal that is not connected gets it when it next logs in.
 */
export interface Link {
  readonly terminal: LinkTerminal;
  /** Writes the command in the protocol's own form; false when it has no such command (reported as failed). */
  send(command: DeviceCommand): boolean;
  close(): void;
}

export interface LinkLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

export interface LinkGatewayOptions {
  publicUrl: string;
  log: LinkLog;
  /** How often every connected terminal's commands are looked for anyway (ms), in case a signal was missed. */
  pollMs?: number;
  /** Told the merged latest states after each commit (the live push). */
  committed?: (states: TelemetryState[]) => Promise<void>;
}

/**
 * Idempotency of what a terminal sends (issue #14). The JSON protocol's
 * receipts key on (IMEI, seq); binary frames have no seq, so the seq is made
 * of a kind (< 16, the low 4 bits) and either the record's time in ms (a GT06
 * frame, one record each; connections; command results) or, for a frame of
 * many records (a Teltonika AVL frame), the frame itself (frameSeq).
 * Kind 1 keyed one Teltonika AVL record by its time before frames were stored whole.
 */
export const KIND = {
  location: 2,
  heartbeat: 3,
  alarm: 4,
  result: 5,
  connected: 6,
  disconnected: 7,
  avlFrame: 8,
} as const;
export const seqOf = (time: Date, kind: number) => Math.max(0, Math.floor(time.getTime())) * 16 + kind;
/**
 * The seq of a whole frame: 48 bits of the SHA-256 of its bytes and the kind, so
 * the same frame sent again (no acknowledgement came) is the same batch, stored
 * once, and any other frame is a batch of its own.
 */
export const frameSeq = (frame: Buffer, kind: number) =>
  createHash('sha256').update(frame).digest().readUIntBE(0, 6) * 16 + kind;

/** The safety poll's default period. */
export const LINK_POLL_MS = 30_000;

export class LinkGateway {
  private readonly writer: GroupCommit;
  /** The open connections, by IMEI. */
  private readonly links = new Map<string, { link: Link; sent: Set<number> }>();
  /** Connected terminals whose last hand-out held a prohibit back: looked at again once a frame of theirs is stored. */
  private readonly held = new Set<string>();
  /** Stores in flight per terminal. */
  private readonly storing = new Map<string, number>();
  /** Terminals signalled, handed out together at the next turn of the event loop. */
  private readonly due = new Set<string>();
  private flushing: Promise<void> | undefined;
  private readonly signal: CommandSubscription;
  private timer: NodeJS.Timeout | undefined;
  private polling: Promise<void> | undefined;
  private stopped = false;

  constructor(
    private readonly db: Db,
    private readonly opts: LinkGatewayOptions,
  ) {
    this.writer = new GroupCommit(db, { notify: { publicUrl: opts.publicUrl }, committed: opts.committed });
    this.signal = subscribeCommands(db, opts.log, { ready: (imei) => this.wake(imei), missed: () => void this.poll() });
    this.timer = setInterval(() => void this.poll(), opts.pollMs ?? LINK_POLL_MS);
    this.timer.unref();
  }

  get log() {
    return this.opts.log;
  }

  /** Resolves once commands made from now on (on any instance) reach this gateway's connections at once. */
  listening(): Promise<void> {
    return this.signal.listening();
  }

  /** The terminal of this IMEI if it may log in over `protocol` from `address`; logs a refusal. */
  async login(imei: string, protocol: LinkProtocol, address: string | undefined): Promise<LinkTerminal | null> {
    const found = await findLinkTerminal(this.db, imei, protocol, address);
    if (typeof found === 'string') {
      this.opts.log.warn(
        { imei, protocol, ip: address, reason: found satisfies LoginRefusal },
        'terminal login refused',
      );
      return null;
    }
    return found;
  }

  /** A terminal connected: an older connection of the same terminal is closed, its commands follow. */
  async attach(link: Link): Promise<void> {
    const imei = link.terminal.car_data_id;
    const old = this.links.get(imei);
    this.links.set(imei, { link, sent: new Set() });
    if (old && old.link !== link) old.link.close();
    const now = new Date();
    await this.store(link.terminal, seqOf(now, KIND.connected), [
      { type: 'connection', time: now.toISOString(), state: 'connected' },
    ]);
    await this.deliver([imei]);
  }

  /** The connection ended: logged as a disconnection unless a newer connection took its place. */
  async detach(link: Link): Promise<void> {
    const imei = link.terminal.car_data_id;
    if (this.links.get(imei)?.link !== link) return;
    this.links.delete(imei);
    this.held.delete(imei);
    const now = new Date();
    await this.store(link.terminal, seqOf(now, KIND.disconnected), [
      { type: 'connection', time: now.toISOString(), state: 'disconnected' },
    ]);
  }

  /** Stores the records of one frame as one batch of this seq (seqOf, frameSeq) and resolves once committed. */
  store(terminal: LinkTerminal, seq: number, records: DeviceRecordInput[], now = new Date()): Promise<IngestOutcome> {
    const imei = terminal.car_data_id;
    this.storing.set(imei, (this.storing.get(imei) ?? 0) + 1);
    return this.writer.ingest(terminal, { seq, records }, now).finally(() => {
      const left = (this.storing.get(imei) ?? 1) - 1;
      if (left > 0) return void this.storing.set(imei, left);
      this.storing.delete(imei);
      // The terminal's frames are in (the acknowledgement goes out first): a held prohibit may go now.
      if (this.held.has(imei)) this.wake(imei);
    });
  }

  /** A command's outcome from the terminal: closes it as the JSON protocol's command_result would. */
  async result(
    terminal: LinkTerminal,
    commandId: number,
    success: boolean,
    detail: string,
    time = new Date(),
  ): Promise<void> {
    const outcome = await this.store(terminal, seqOf(time, KIND.result), [
      {
        type: 'command_result',
        time: time.toISOString(),
        command_id: commandId,
        success,
        detail: detail.slice(0, 255),
      },
    ]);
    const refused = outcome.response.rejected[0];
    if (refused)
      this.opts.log.warn(
        { imei: terminal.car_data_id, command_id: commandId, reason: refused.reason },
        'command result refused',
      );
    else
      this.opts.log.info(
        { imei: terminal.car_data_id, command_id: commandId, success, detail },
        'command result stored',
      );
  }

  /** Hands the waiting commands of these connected terminals to their connections (each once per connection). */
  async deliver(imeis: readonly string[]): Promise<void> {
    const connected = imeis.filter((imei) => this.links.has(imei));
    if (connected.length === 0) return;
    const { commands, held } = await takeLinkCommands(this.db, connected);
    for (const imei of connected) {
      if (held.has(imei) && this.links.has(imei)) this.held.add(imei);
      else this.held.delete(imei);
    }
    for (const [imei, list] of commands) {
      const entry = this.links.get(imei);
      if (!entry) continue; // disconnected meanwhile: repeated at its next login (resultWait)
      for (const command of list) {
        if (entry.sent.has(command.id)) continue;
        entry.sent.add(command.id);
        if (entry.link.send(command)) {
          this.opts.log.info({ imei, command_id: command.id, cmd_type: command.cmd_type }, 'command sent to terminal');
        } else {
          await this.result(entry.link.terminal, command.id, false, 'このプロトコルの端末では実行できないコマンドです');
        }
      }
    }
  }

  /** A signal: commands may wait for this terminal. Handed out at once when it is connected here, else nothing. */
  private wake(imei: string) {
    if (this.stopped || !this.links.has(imei)) return;
    this.due.add(imei);
    this.flushing ??= this.flush();
  }

  /** The signalled terminals, together (many at once when the scheduler fires a batch of requests). */
  private async flush(): Promise<void> {
    try {
      await new Promise((resolve) => setImmediate(resolve));
      while (this.due.size > 0 && !this.stopped) {
        const imeis = [...this.due];
        this.due.clear();
        await this.deliver(imeis).catch((err: unknown) =>
          this.opts.log.warn({ err, imeis: imeis.length }, 'terminal command hand-out failed'),
        );
      }
    } finally {
      this.due.clear();
      this.flushing = undefined;
    }
  }

  /** Every connected terminal's commands; one round at a time. */
  poll(): Promise<void> {
    this.polling ??= this.deliver([...this.links.keys()])
      .catch((err: unknown) => this.opts.log.warn({ err }, 'terminal command poll failed'))
      .finally(() => {
        this.polling = undefined;
      });
    return this.polling;
  }

  /** Terminals connected to this instance. */
  get connected(): number {
    return this.links.size;
  }

  /** Stops handing out commands, records every connected terminal's disconnection and closes the connections. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    this.timer = undefined;
    await this.signal.close();
    await this.polling;
    await this.flushing;
    const links = [...this.links.values()].map((e) => e.link);
    this.links.clear(); // detach() of the closing connections has nothing left to do
    this.held.clear();
    const now = new Date();
    await Promise.allSettled(
      links.map((link) =>
        this.store(link.terminal, seqOf(now, KIND.disconnected), [
          { type: 'connection', time: now.toISOString(), state: 'disconnected' },
        ]),
      ),
    );
    for (const link of links) link.close();
  }
}

/** The text of an engine permit/prohibit for this terminal: its own override, else the protocol's default; null for other commands. */
export function immobiliserText(
  command: DeviceCommand,
  terminal: LinkTerminal,
  defaults: { cut: string; restore: string },
): string | null {
  if (command.cmd_type !== 'set_engine_boot_permission') return null;
  const cmd = Number(command.cmd_info.cmd);
  if (cmd === 1) return terminal.cmd_cut_text || defaults.cut;
  if (cmd === 0) return terminal.cmd_restore_text || defaults.restore;
  return null;
}
