import { defaultCommandTexts, type DeviceRecordInput } from '@fleet/contract';
import { KIND, frameSeq, seqOf } from './link-gateway.js';
import { linkProtocol, type LinkCodec, type LinkState } from './link-protocol.js';
import {
  JT808,
  JT808_MAX_FRAME,
  encodeJt808Frame,
  encodeRegisterReply,
  encodeServerReply,
  readBatch,
  readJt808Frame,
  readLocation,
  readTerminalReply,
  type Jt808Header,
  type Jt808Location,
} from './jt808-codec.js';

/** Alarm bits of a location (the standard's table), by the name our sensor readings use. */
const ALARMS: [bit: number, name: string][] = [
  [0, 'sos'],
  [1, 'overspeed'],
  [2, 'fatigue'],
  [7, 'low_power'],
  [8, 'power_cut'],
  [20, 'fence'],
  [27, 'ignition_illegal'],
  [28, 'displacement'],
];

/**
 * A location as the records of our own protocol (docs/device-protocol.md §3.2):
 * the fix → gps when status bit 1 (positioned) is set; status bit 0 (ACC) → engine.running;
 * bit 10 (oil line cut) → engine.engine_line; alarm bits, signal (0x30) and mileage (0x01) → sensor.
 */
export function jt808Records(l: Jt808Location): DeviceRecordInput[] {
  const time = l.time.toISOString();
  const out: DeviceRecordInput[] = [];
  const satellites = l.extra.get(0x31)?.[0];
  if (l.status & 0x02)
    out.push({
      type: 'gps',
      time,
      lat: round6(l.lat),
      lng: round6(l.lng),
      speed: l.speed,
      heading: l.course % 360,
      ...(satellites !== undefined ? { satellites } : {}),
    });
  out.push({
    type: 'engine',
    time,
    running: l.status & 0x01 ? 'on' : 'off',
    engine_line: l.status & 0x0400 ? 'disconnected' : 'connected',
  });
  const readings: Record<string, number | string> = {};
  const alarm = ALARMS.find(([bit]) => l.alarm & (1 << bit));
  if (alarm) readings.alarm = alarm[1];
  const signal = l.extra.get(0x30)?.[0];
  if (signal !== undefined) readings.gsm_signal = signal;
  const mileage = l.extra.get(0x01);
  if (mileage?.length === 4) readings.odometer_m = mileage.readUInt32BE(0) * 100;
  if (Object.keys(readings).length) out.push({ type: 'sensor', time, readings });
  return out;
}

const round6 = (v: number) => Math.round(v * 1e6) / 1e6;

/** The header form the terminal last wrote (its edition, its phone number bytes): replies are written in it. */
const headerOf = (state: LinkState): Jt808Header => state.memo.header as Jt808Header;

/**
 * JT/T 808 as a codec of the shared link (link-protocol.ts). The terminal id
 * is the phone number of the header. Registration (0x0100) is answered with
 * 0x8100 and an authentication code, authentication (0x0102), heartbeats,
 * locations and batches with the general reply 0x8001 (once stored); every
 * reply in the terminal's own edition. Engine cut/restore: a terminal control
 * 0x8105 whose body is the command word (f0 / f1, overridable as hex), the
 * terminal's general reply 0x0001 naming its serial completes the command.
 */
export const jt808Codec: LinkCodec = {
  name: 'jt808',
  maxFrame: JT808_MAX_FRAME,
  commands: defaultCommandTexts.jt808!,
  read(buf, state) {
    const read = readJt808Frame(buf);
    if (!read) return null;
    const { frame, size } = read;
    if (!frame) return { size, message: { type: 'skip', why: 'wrong check code' } };
    state.memo.header = { edition2019: frame.edition2019, version: frame.version, phone: frame.phone };
    const id = frame.terminalId;
    const reply = (result = 0) => encodeServerReply(headerOf(state), state.serial(), frame, result);
    switch (frame.id) {
      case JT808.register:
        return {
          size,
          message: {
            type: 'login',
            id,
            answer: (accepted) =>
              encodeRegisterReply(headerOf(state), state.serial(), frame.serial, accepted ? id : null),
          },
        };
      case JT808.authenticate:
        return { size, message: { type: 'login', id, answer: (accepted) => reply(accepted ? 0 : 1) } };
      case JT808.location: {
        const location = readLocation(frame.body);
        return {
          size,
          message: {
            type: 'data',
            id,
            seq: seqOf(location.time, KIND.location),
            records: jt808Records(location),
            ack: reply(),
          },
        };
      }
      case JT808.batch: {
        const batch = readBatch(frame.body);
        return {
          size,
          message: {
            type: 'data',
            id,
            // Many fixes in one frame: the frame is the batch (each fix also has its own record key).
            seq: frameSeq(frame.body, KIND.avlFrame),
            records: batch.locations.flatMap(jt808Records),
            ack: reply(),
          },
        };
      }
      case JT808.terminalReply: {
        const r = readTerminalReply(frame.body);
        return {
          size,
          message: {
            type: 'reply',
            id,
            key: r.serial,
            success: r.result === 0,
            text: `0x${r.id.toString(16).padStart(4, '0')}: ${RESULTS[r.result] ?? `result ${r.result}`}`,
          },
        };
      }
      default:
        // Heartbeat, logout and whatever else: the general reply keeps the terminal talking.
        return { size, message: { type: 'answer', id, ack: reply() } };
    }
  },
  command(text, state) {
    const serial = state.serial();
    const body = Buffer.from(/^([0-9a-f]{2})+$/i.test(text) ? text : '', 'hex');
    return { bytes: encodeJt808Frame(JT808.terminalControl, headerOf(state), serial, body), key: serial };
  },
};

const RESULTS: Record<number, string> = { 0: 'success', 1: 'failure', 2: 'wrong message', 3: 'not supported' };

export const jt808Protocol = linkProtocol(jt808Codec);
