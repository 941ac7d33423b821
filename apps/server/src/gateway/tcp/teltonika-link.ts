import { KIND, frameSeq, immobiliserText, type Link } from './link-gateway.js';
import type { Connection, LinkProtocolHandler, Session, Step } from './link-listener.js';
import {
  TELTONIKA_MAX_FRAME,
  encodeAck,
  encodeCommand,
  encodeLoginReply,
  readFrame,
  readLogin,
} from './teltonika-codec.js';
import { avlToRecords } from './teltonika-records.js';

/** Default immobiliser texts: DOUT1 drives the relay (overridable per terminal, e.g. `setigndigout`). */
export const TELTONIKA_COMMANDS = { cut: 'setdigout 1', restore: 'setdigout 0' };

/** A Codec 12 answer that reports failure ("ERROR", "Unknown command", …); anything else is the device's report of success. */
export const teltonikaReplySucceeded = (text: string) =>
  text.trim().length > 0 && !/error|fail|unknown|invalid|not supported|wrong/i.test(text);

/**
 * One Teltonika connection: the IMEI login (01 / 00), AVL frames stored whole
 * (one batch each) and acknowledged with their record count once committed, Codec 12
 * commands out and their type-06 responses in. Codec 12 responses carry no
 * command id: they answer the commands in the order they were sent.
 */
export const teltonikaProtocol: LinkProtocolHandler = {
  name: 'teltonika',
  maxFrame: TELTONIKA_MAX_FRAME,
  open(conn: Connection): Session {
    let link: Link | null = null;
    const awaiting: number[] = [];

    const onLogin =
      (imei: string): Step['handle'] =>
      async () => {
        const terminal = await conn.gateway.login(imei, 'teltonika', conn.address);
        conn.write(encodeLoginReply(terminal !== null));
        if (!terminal) return conn.close();
        link = {
          terminal,
          send: (command) => {
            const text = immobiliserText(command, terminal, TELTONIKA_COMMANDS);
            if (text === null) return false;
            awaiting.push(command.id);
            conn.write(encodeCommand(text));
            return true;
          },
          close: conn.close,
        };
        await conn.gateway.attach(link);
      };

    return {
      get loggedIn() {
        return link !== null;
      },
      next(buf) {
        if (!link) {
          const login = readLogin(buf);
          return login && { size: login.size, handle: onLogin(login.imei) };
        }
        const read = readFrame(buf);
        if (!read) return null;
        const current = link;
        const { frame } = read;
        if (!frame)
          return {
            size: read.size,
            handle: async () =>
              conn.gateway.log.warn({ imei: current.terminal.car_data_id }, 'teltonika frame skipped: wrong CRC'),
          };
        if (frame.kind === 'avl') {
          // The frame is one batch, idempotent on its bytes: sent again unacknowledged, it is stored once.
          const seq = frameSeq(buf.subarray(0, read.size), KIND.avlFrame);
          return {
            size: read.size,
            handle: async () => {
              await conn.gateway.store(current.terminal, seq, frame.records.flatMap(avlToRecords), new Date());
              conn.write(encodeAck(frame.records.length));
            },
          };
        }
        return {
          size: read.size,
          handle: async () => {
            const id = awaiting.shift();
            if (id === undefined)
              return conn.gateway.log.info(
                { imei: current.terminal.car_data_id, text: frame.text },
                'teltonika response to no command of ours',
              );
            await conn.gateway.result(current.terminal, id, teltonikaReplySucceeded(frame.text), frame.text);
          },
        };
      },
      closed: async () => {
        if (link) await conn.gateway.detach(link);
      },
    };
  },
};
