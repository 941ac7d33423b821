import { KIND, seqOf } from './link-gateway.js';
import { linkProtocol, type LinkCodec, type LinkMessage } from './link-protocol.js';
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
 * GT06 as a codec of the shared link (link-protocol.ts): the login (IMEI in
 * BCD; an unknown terminal gets no answer and the connection closes), data
 * frames stored and then acknowledged, commands out as 0x80 with the command
 * id as the server flag, replies (0x15 / 0x21) in, matched by that flag, or in
 * order when a clone leaves it out.
 */
export const gt06Codec: LinkCodec = {
  name: 'gt06',
  maxFrame: GT06_MAX_FRAME,
  commands: GT06_COMMANDS,
  read(buf, _state, now) {
    const read = readGt06Frame(buf);
    if (!read) return null;
    const { frame, size } = read;
    if (!frame) return { size, message: { type: 'skip', why: 'wrong CRC' } };
    const ack = acknowledged.has(frame.protocol) ? encodeGt06Ack(frame.protocol, frame.serial) : null;
    const msg = decodeGt06(frame, now);
    let message: LinkMessage;
    if (msg.type === 'login') message = { type: 'login', id: msg.imei, answer: (accepted) => (accepted ? ack : null) };
    else if (msg.type === 'data')
      message = { type: 'data', seq: seqOf(msg.time, kindOf(frame.protocol)), records: msg.records, ack };
    else if (msg.type === 'reply')
      message = { type: 'reply', key: msg.serverFlag, success: replySucceeded(msg.text), text: msg.text };
    else message = ack ? { type: 'answer', ack } : { type: 'ignored' };
    return { size, message };
  },
  // The server flag is the command id: the reply names it.
  command: (text, state, commandId) => ({ bytes: encodeGt06Command(text, commandId, state.serial()), key: commandId }),
};

export const gt06Protocol = linkProtocol(gt06Codec);
