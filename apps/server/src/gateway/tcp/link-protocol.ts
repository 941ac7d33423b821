import type { DeviceRecordInput } from '@fleet/contract';
import { immobiliserText, type Link } from './link-gateway.js';
import type { Connection, LinkProtocolHandler, Session, Step } from './link-listener.js';
import type { LinkProtocol, LinkTerminal } from './link-terminals.js';

/**
 * A TCP protocol as a codec plus a table of messages; everything else (the
 * login against the allow-list and the takeover rule, storing each frame as
 * one idempotent batch before it is acknowledged, the held prohibit and the
 * speed guard, handing out commands and completing them by their answers) is
 * the link's, the same for every protocol (docs/device-protocol.md).
 *
 * A frame decodes to one message:
 * - `login`: the terminal names itself; `answer(accepted)` is what it is told
 *   (null: nothing, and an unknown terminal's connection is closed);
 * - `data`: records stored as one batch of `seq`, then `ack` written. A
 *   protocol that names the terminal in every message (H02, GPS103, Queclink)
 *   carries `id`: the first such message logs the terminal in;
 * - `reply`: the answer to a command: `key` names the command it answers (a
 *   serial, a server flag), null the oldest one waiting;
 * - `answer`: only a reply to write (a heartbeat without news);
 * - `skip`: a frame the terminal will send again (a wrong checksum), logged.
 */
export type LinkMessage =
  | { type: 'login'; id: string; answer?: (accepted: boolean) => Buffer | null }
  | { type: 'data'; seq: number; records: DeviceRecordInput[]; ack?: Buffer | null; id?: string }
  | { type: 'reply'; key: number | null; success: boolean; text: string; ack?: Buffer | null; id?: string }
  | { type: 'answer'; ack: Buffer | null; id?: string }
  | { type: 'skip'; why: string }
  | { type: 'ignored' };

/** A command written to the terminal; `key` is what its answer will name (null: answers come in order). */
export interface EncodedCommand {
  bytes: Buffer;
  key: number | null;
}

/** What one connection of a protocol keeps between frames (its serials, the form its terminal speaks). */
export interface LinkState {
  /** The terminal, once logged in. */
  terminal: LinkTerminal | null;
  /** The next serial of a frame the server sends (1, 2, … 0xffff, 0, …). */
  serial(): number;
  /** Protocol-specific memory (the JT/T 808 edition, the Queclink protocol version …). */
  readonly memo: Record<string, unknown>;
}

export interface LinkCodec {
  name: LinkProtocol;
  /** The largest frame taken; more is not this protocol. */
  maxFrame: number;
  /** The immobiliser texts used unless the terminal overrides them. */
  commands: { cut: string; restore: string };
  /**
   * The next frame at the start of `buf`: null when it is not complete, else
   * its size and message. Throws when the bytes cannot be this protocol.
   */
  read(buf: Buffer, state: LinkState, now: Date): { size: number; message: LinkMessage } | null;
  /** The immobiliser text as this protocol sends it to this terminal. */
  command(text: string, state: LinkState, commandId: number): EncodedCommand;
}

/** One connection of a codec: the shared login, store, acknowledgement and command bookkeeping. */
export function linkProtocol(codec: LinkCodec): LinkProtocolHandler {
  return {
    name: codec.name,
    maxFrame: codec.maxFrame,
    open(conn: Connection): Session {
      let link: Link | null = null;
      let serial = 0;
      const awaiting: { id: number; key: number | null }[] = [];
      const state: LinkState = {
        terminal: null,
        serial: () => (serial = (serial + 1) & 0xffff),
        memo: {},
      };
      const log = conn.gateway.log;

      /** Logs the terminal in; false when refused (the connection is closed). */
      const login = async (id: string, answer?: (accepted: boolean) => Buffer | null): Promise<boolean> => {
        const terminal = await conn.gateway.login(id, codec.name, conn.address);
        const reply = answer?.(terminal !== null);
        if (reply) conn.write(reply);
        if (!terminal) {
          conn.close();
          return false;
        }
        state.terminal = terminal;
        link = {
          terminal,
          send: (command) => {
            const text = immobiliserText(command, terminal, codec.commands);
            if (text === null) return false;
            const out = codec.command(text, state, command.id);
            awaiting.push({ id: command.id, key: out.key });
            conn.write(out.bytes);
            return true;
          },
          close: conn.close,
        };
        await conn.gateway.attach(link);
        return true;
      };

      /** The terminal this message is from: the logged-in one, else the one it names (logged in now). */
      const from = async (id: string | undefined): Promise<LinkTerminal | null> => {
        if (link) return link.terminal;
        if (id === undefined) throw new Error('frame before login');
        return (await login(id)) ? state.terminal : null;
      };

      const handle = async (message: LinkMessage, now: Date): Promise<void> => {
        switch (message.type) {
          case 'login':
            if (!link) await login(message.id, message.answer);
            else if (message.answer) {
              const reply = message.answer(true);
              if (reply) conn.write(reply);
            }
            return;
          case 'data': {
            const terminal = await from(message.id);
            if (!terminal) return;
            if (message.records.length) await conn.gateway.store(terminal, message.seq, message.records, now);
            if (message.ack) conn.write(message.ack);
            return;
          }
          case 'reply': {
            const terminal = await from(message.id);
            if (!terminal) return;
            const at = message.key === null ? -1 : awaiting.findIndex((a) => a.key === message.key);
            const entry = at >= 0 ? awaiting.splice(at, 1)[0] : message.key === null ? awaiting.shift() : undefined;
            if (message.ack) conn.write(message.ack);
            if (!entry)
              return log.info(
                { imei: terminal.car_data_id, text: message.text },
                `${codec.name} answer to no command of ours`,
              );
            await conn.gateway.result(terminal, entry.id, message.success, message.text || '(empty reply)');
            return;
          }
          case 'answer': {
            const terminal = await from(message.id);
            if (terminal && message.ack) conn.write(message.ack);
            return;
          }
          case 'skip':
            return log.warn({ imei: state.terminal?.car_data_id }, `${codec.name} frame skipped: ${message.why}`);
          case 'ignored':
            return;
        }
      };

      return {
        get loggedIn() {
          return link !== null;
        },
        next(buf): Step | null {
          const now = new Date();
          const read = codec.read(buf, state, now);
          if (!read) return null;
          const { message } = read;
          if (!link && message.type !== 'login' && message.type !== 'skip' && message.type !== 'ignored') {
            if (!('id' in message) || message.id === undefined) throw new Error('frame before login');
          }
          return { size: read.size, handle: () => handle(message, now) };
        },
        closed: async () => {
          if (link) await conn.gateway.detach(link);
        },
      };
    },
  };
}
