import { createHash, randomUUID } from 'node:crypto';
import {
  terminalIdentityTexts,
  type DeviceCommand,
  type DeviceRecordInput,
  type TelemetryState,
  type TerminalTakeoverMode,
} from '@fleet/contract';
import type { Db } from '../../db/database.js';
import { recordCommandAnswered, recordCommandsSent, type CommandLinkOf } from '../../commands/command-links.js';
import { subscribeCommands, type CommandSubscription } from '../../commands/command-signal.js';
import { takeLinkCommands } from '../../commands/terminal-commands.repository.js';
import { raiseLinkAlert, type LinkAlert } from '../../notify/link-alerts.js';
import { GroupCommit } from '../group-commit.js';
import type { IngestOutcome } from '../ingest.service.js';
import {
  claimLink,
  noteAddress,
  releaseInstance,
  releaseLink,
  stillHeld,
  wantsNewAddressAlert,
} from './link-registry.js';
import { findLinkTerminal, type LinkProtocol, type LinkTerminal, type LoginRefusal } from './link-terminals.js';
import { notificationFollower } from '../../notify/ingest-follower.js';

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
 *
 * A terminal has one live link, wherever it is held (terminal_links,
 * link-registry.ts): a second login for its IMEI while that link is alive is
 * refused (TERMINAL_TAKEOVER=refuse) or takes its place (replace), and either
 * way raises the 「端末の二重接続」 alert with both addresses. A command row
 * records the link that delivered it and the one its answer came on.
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
  /** A second login for an IMEI with a live link: refused (default) or takes its place. */
  takeover?: TerminalTakeoverMode;
}

/**
 * Idempotency of what a terminal sends (docs/device-protocol.md §5, §13). The JSON protocol's
 * receipts key on (IMEI, seq); binary frames have no seq, so the seq is made
 * of a kind (< 16, the low 4 bits) and either the record's time in ms (a GT06
 * frame, one record each; connections; command results) or, for a frame of
 * many records (a Teltonika AVL frame), the frame itself (frameSeq).
 * Kind 1 keyed one Teltonika AVL record by its time before frames were stored whole.
 * Each record also has a seq of its own, of its content (ingest.service.ts recordSeq, kind 9): a record
 * sent again in another frame is stored once while that frame's other records are stored.
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

/** A link held by another instance counts as alive while that instance refreshed it within this (its polls). */
export const linkAliveMs = (pollMs: number) => Math.max(3 * pollMs, 60_000);

/** A login whose link was claimed but not attached yet holds the terminal for at most this. */
const PENDING_MS = 30_000;

/** The source address as stored and shown: IPv4 without its IPv6 mapping; '' when the socket had none. */
export const linkAddress = (address: string | undefined) =>
  (address ?? '').replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, '');

export class LinkGateway {
  private readonly writer: GroupCommit;
  /** The open connections, by IMEI, with the link each is (address, login time). */
  private readonly links = new Map<string, { link: Link; sent: Set<number>; at: CommandLinkOf }>();
  /** The link each login claimed, by the terminal object login() returned. */
  private readonly claims = new WeakMap<LinkTerminal, CommandLinkOf>();
  /** Logins claimed and not attached yet, by IMEI. */
  private readonly pending = new Map<string, Date>();
  /** This gateway in terminal_links. */
  readonly instance = randomUUID();
  /** Connected terminals whose last hand-out held a prohibit back: looked at again once a frame of theirs is stored. */
  private readonly prohibitsWaiting = new Set<string>();
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
    // recordKeys: a record the terminal sends again in another frame (alone, beside others, in another codec) is stored once.
    this.writer = new GroupCommit(db, {
      followers: [notificationFollower(opts.publicUrl)],
      committed: opts.committed,
      recordKeys: true,
    });
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

  /**
   * The terminal of this IMEI if it may log in over `protocol` from `address`
   * and no other live link holds it (or TERMINAL_TAKEOVER=replace); logs a
   * refusal. The link it claims is attach()'s.
   */
  async login(imei: string, protocol: LinkProtocol, address: string | undefined): Promise<LinkTerminal | null> {
    const found = await findLinkTerminal(this.db, imei, protocol, address);
    if (typeof found === 'string') {
      this.opts.log.warn(
        { imei, protocol, ip: address, reason: found satisfies LoginRefusal },
        'terminal login refused',
      );
      return null;
    }
    const at: CommandLinkOf = { address: linkAddress(address), connectedAt: new Date() };
    const pendingSince = this.pending.get(imei);
    const claim = await claimLink(this.db, {
      imei,
      protocol,
      address: at.address,
      connectedAt: at.connectedAt,
      instance: this.instance,
      heldHere:
        this.links.get(imei)?.at.connectedAt ??
        (pendingSince && Date.now() - pendingSince.getTime() < PENDING_MS ? pendingSince : undefined),
      replace: this.opts.takeover === 'replace',
      aliveMs: linkAliveMs(this.opts.pollMs ?? LINK_POLL_MS),
    });
    const live = claim.claimed ? claim.replaced : claim.live;
    if (live) {
      this.opts.log.warn(
        {
          imei,
          protocol,
          ip: at.address,
          live_ip: live.address,
          live_since: live.connectedAt.toISOString(),
          live_here: live.here,
          reason: 'takeover',
        },
        claim.claimed ? 'terminal link replaced by a second login' : 'terminal login refused',
      );
      await this.alert({
        item: 'terminal_duplicate',
        imei,
        at: at.connectedAt,
        what: terminalIdentityTexts.duplicateWhat(live.address, at.address, claim.claimed),
        detail: {
          live_address: live.address,
          live_connected_at: live.connectedAt.toISOString(),
          new_address: at.address,
          protocol,
          outcome: claim.claimed ? 'replaced' : 'refused',
        },
      });
    }
    if (!claim.claimed) return null;
    this.pending.set(imei, at.connectedAt);
    this.claims.set(found, at);
    if (at.address && (await this.noteAddress(imei, at.address)))
      await this.alert({
        item: 'terminal_new_address',
        imei,
        at: at.connectedAt,
        what: terminalIdentityTexts.newAddressWhat(at.address),
        detail: { address: at.address, protocol },
      });
    return found;
  }

  /** Whether the company wants to hear of this new address; a failure only logs (the login goes on). */
  private async noteAddress(imei: string, address: string): Promise<boolean> {
    try {
      return (await noteAddress(this.db, imei, address)) && (await wantsNewAddressAlert(this.db, imei));
    } catch (err) {
      this.opts.log.warn({ err, imei }, 'terminal address not noted');
      return false;
    }
  }

  /** Raises a link alert; a failure only logs (the login's answer does not depend on it). */
  private async alert(alert: LinkAlert): Promise<void> {
    try {
      const told = await raiseLinkAlert(this.db, alert, { publicUrl: this.opts.publicUrl });
      this.opts.log.warn({ imei: alert.imei, item: alert.item, told, ...alert.detail }, 'terminal link alert');
    } catch (err) {
      this.opts.log.warn({ err, imei: alert.imei, item: alert.item }, 'terminal link alert failed');
    }
  }

  /** The link a login claimed (address, login time). */
  private linkOf(terminal: LinkTerminal): CommandLinkOf {
    return this.claims.get(terminal) ?? { address: '', connectedAt: new Date(0) };
  }

  /** A terminal connected: an older connection of the same terminal is closed, its commands follow. */
  async attach(link: Link): Promise<void> {
    const imei = link.terminal.car_data_id;
    const at = this.linkOf(link.terminal);
    if (this.pending.get(imei)?.getTime() === at.connectedAt.getTime()) this.pending.delete(imei);
    const old = this.links.get(imei);
    this.links.set(imei, { link, sent: new Set(), at });
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
    const entry = this.links.get(imei);
    if (entry?.link !== link) return;
    this.links.delete(imei);
    this.prohibitsWaiting.delete(imei);
    await releaseLink(this.db, imei, this.instance, entry.at.connectedAt);
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
      if (this.prohibitsWaiting.has(imei)) this.wake(imei);
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
    await recordCommandAnswered(this.db, terminal.car_data_id, commandId, this.linkOf(terminal));
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
    return this.handOut(await this.ownLinks(imeis, false));
  }

  /**
   * Which of these terminals are connected here and still have their live link
   * here; a link a newer login took on another instance (replace) is closed.
   * `refresh`: also tell the other instances these links are alive.
   */
  private async ownLinks(imeis: readonly string[], refresh: boolean): Promise<string[]> {
    const here = new Map<string, Date>();
    for (const imei of imeis) {
      const entry = this.links.get(imei);
      if (entry) here.set(imei, entry.at.connectedAt);
    }
    if (here.size === 0) return [];
    const mine = await stillHeld(this.db, this.instance, here, refresh);
    for (const [imei, since] of here) {
      const entry = this.links.get(imei);
      if (mine.has(imei) || !entry || entry.at.connectedAt.getTime() !== since.getTime()) continue;
      this.links.delete(imei);
      this.prohibitsWaiting.delete(imei);
      this.opts.log.warn({ imei, ip: entry.at.address }, 'terminal link taken by a newer login elsewhere: closed');
      entry.link.close();
    }
    return [...here.keys()].filter((imei) => mine.has(imei) && this.links.has(imei));
  }

  private async handOut(connected: readonly string[]): Promise<void> {
    if (connected.length === 0) return;
    const { commands, waitingWhileMoving } = await takeLinkCommands(this.db, connected);
    for (const imei of connected) {
      if (waitingWhileMoving.has(imei) && this.links.has(imei)) this.prohibitsWaiting.add(imei);
      else this.prohibitsWaiting.delete(imei);
    }
    for (const [imei, list] of commands) {
      const entry = this.links.get(imei);
      if (!entry) continue; // disconnected meanwhile: repeated at its next login (resultWait)
      const sent: number[] = [];
      for (const command of list) {
        if (entry.sent.has(command.id)) continue;
        entry.sent.add(command.id);
        if (entry.link.send(command)) {
          sent.push(command.id);
          this.opts.log.info({ imei, command_id: command.id, cmd_type: command.cmd_type }, 'command sent to terminal');
        } else {
          await this.result(entry.link.terminal, command.id, false, 'このプロトコルの端末では実行できないコマンドです');
        }
      }
      await recordCommandsSent(this.db, imei, sent, entry.at);
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
    this.polling ??= this.ownLinks([...this.links.keys()], true)
      .then((imeis) => this.handOut(imeis))
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
    this.prohibitsWaiting.clear();
    await releaseInstance(this.db, this.instance).catch((err: unknown) =>
      this.opts.log.warn({ err }, 'terminal links not released'),
    );
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
