import { KIND, immobiliserText, seqOf, type Link } from './link-gateway.js';
import type { Connection, LinkProtocolHandler, Session, Step } from './link-listener.js';
import { GT06, GT06_MAX_FRAME, encodeGt06Ack, encodeGt06Command, readGt06Frame } from './gt06-codec.js';
import { acknowledged, decodeGt06, replySucceeded } from './gt06-records.js';

/** Default immobiliser texts of Concox devices (overridable per terminal, e.g. `DYD,000000#` / `HFYD,000000#`). */
export const GT06_COMMANDS = { cut: 'Relay,1#', restore: 'Relay,0#' };

const kindOf = (protocol: number) =>
  protocol === GT06.heartbeat
    ? KIND.heartbeat
    : protocol === GT06.alarm || protocol === GT06.alarm2 || protocol === GT06.alarm3
      ? KIND.alarm
      : KIND.location;

/**
 * One GT06 connection: the login (IMEI in BCD; an unknown terminal gets no
 * answer and the connection closes), data frames stored and then
 * acknowledged, commands out as 0x80 with the command id as the server flag,
 * replies (0x15 / 0x21) in, matched by that flag, or in order when a clone
 * leaves it out.
 */
export const gt06Protocol: LinkProtocolHandler = {
  name: 'gt06',
  maxFrame: GT06_MAX_FRAME,
  open(conn: Connection): Session {
    let link: Link | null = null;
    let serial = 0;
    const awaiting: number[] = [];

    const onLogin =
      (imei: string, frameSerial: number): Step['handle'] =>
      async () => {
        const terminal = await conn.gateway.login(imei, 'gt06', conn.address);
        if (!terminal) return conn.close();
        conn.write(encodeGt06Ack(GT06.login, frameSerial));
        link = {
          terminal,
          send: (command) => {
            const text = immobiliserText(command, terminal, GT06_COMMANDS);
            if (text === null) return false;
            awaiting.push(command.id);
            serial = (serial + 1) & 0xffff;
            conn.write(encodeGt06Command(text, command.id, serial));
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
        const read = readGt06Frame(buf);
        if (!read) return null;
        const { frame, size } = read;
        if (!frame)
          return {
            size,
            handle: async () =>
              conn.gateway.log.warn({ imei: link?.terminal.car_data_id }, 'gt06 frame skipped: wrong CRC'),
          };
        const now = new Date();
        const msg = decodeGt06(frame, now);
        if (msg.type === 'login') return { size, handle: link ? undefined : onLogin(msg.imei, frame.serial) };
        if (!link) throw new Error('frame before login');
        const current = link;
        if (msg.type === 'data') {
          return {
            size,
            handle: async () => {
              if (msg.records.length)
                await conn.gateway.store(current.terminal, seqOf(msg.time, kindOf(frame.protocol)), msg.records, now);
              if (acknowledged.has(frame.protocol)) conn.write(encodeGt06Ack(frame.protocol, frame.serial));
            },
          };
        }
        if (msg.type === 'reply') {
          return {
            size,
            handle: async () => {
              const at = msg.serverFlag === null ? -1 : awaiting.indexOf(msg.serverFlag);
              const id = at >= 0 ? awaiting.splice(at, 1)[0] : awaiting.shift();
              if (id === undefined)
                return conn.gateway.log.info(
                  { imei: current.terminal.car_data_id, text: msg.text },
                  'gt06 reply to no command of ours',
                );
              await conn.gateway.result(current.terminal, id, replySucceeded(msg.text), msg.text || '(empty reply)');
            },
          };
        }
        return {
          size,
          handle: acknowledged.has(frame.protocol)
            ? async () => conn.write(encodeGt06Ack(frame.protocol, frame.serial))
            : undefined,
        };
      },
      closed: async () => {
        if (link) await conn.gateway.detach(link);
      },
    };
  },
};
