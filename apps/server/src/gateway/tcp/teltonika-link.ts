import { KIND, frameSeq } from './link-gateway.js';
import { linkProtocol, type LinkCodec } from './link-protocol.js';
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
 * Teltonika as a codec of the shared link (link-protocol.ts): the IMEI login
 * (01 / 00), AVL frames stored whole (one batch each) and acknowledged with
 * their record count once committed, Codec 12 commands out and their type-06
 * responses in. Codec 12 responses carry no command id: they answer the
 * commands in the order they were sent.
 */
export const teltonikaCodec: LinkCodec = {
  name: 'teltonika',
  maxFrame: TELTONIKA_MAX_FRAME,
  commands: TELTONIKA_COMMANDS,
  read(buf, state) {
    if (!state.terminal) {
      const login = readLogin(buf);
      return login && { size: login.size, message: { type: 'login', id: login.imei, answer: encodeLoginReply } };
    }
    const read = readFrame(buf);
    if (!read) return null;
    const { frame, size } = read;
    if (!frame) return { size, message: { type: 'skip', why: 'wrong CRC' } };
    if (frame.kind === 'avl')
      return {
        size,
        message: {
          type: 'data',
          // The frame is one batch, idempotent on its bytes: sent again unacknowledged, it is stored once.
          seq: frameSeq(buf.subarray(0, size), KIND.avlFrame),
          records: frame.records.flatMap(avlToRecords),
          ack: encodeAck(frame.records.length),
        },
      };
    return {
      size,
      message: { type: 'reply', key: null, success: teltonikaReplySucceeded(frame.text), text: frame.text },
    };
  },
  command: (text) => ({ bytes: encodeCommand(text), key: null }),
};

export const teltonikaProtocol = linkProtocol(teltonikaCodec);
