import { crc16X25 } from './crc.js';

/**
 * The GT06 / Concox protocol, from Concox's "GT06 / GT06N communication
 * protocol" documents. A frame is
 *   7878 | length (1) | protocol (1) | content | serial (2) | CRC-16/X-25 (2) | 0D0A
 * (7979 with a 2-byte length for long frames); the length counts protocol
 * to CRC, the CRC covers length to serial. Pure functions over buffers; the
 * connection lives in gt06-listener.ts.
 */
export const GT06 = {
  login: 0x01,
  gps: 0x10,
  gpsLbs: 0x12,
  heartbeat: 0x13,
  stringReply: 0x15,
  alarm: 0x16,
  reply4g: 0x21,
  gpsLbs2: 0x22,
  alarm2: 0x26,
  alarm3: 0x27,
  command: 0x80,
} as const;
export const GT06_MAX_FRAME = 1024;

export class Gt06FrameError extends Error {}
const fail = (why: string): never => {
  throw new Gt06FrameError(why);
};

export interface Gt06Frame {
  protocol: number;
  content: Buffer;
  serial: number;
}

/**
 * Reads one frame from the start of `buf`. Null: not complete yet. `frame`
 * null: its CRC is wrong (skipped unanswered). Gt06FrameError: not a frame.
 */
export function readGt06Frame(buf: Buffer, max = GT06_MAX_FRAME): { size: number; frame: Gt06Frame | null } | null {
  if (buf.length < 2) return buf.length === 1 && buf[0] !== 0x78 && buf[0] !== 0x79 ? fail('no start bits') : null;
  const long = buf[0] === 0x79 && buf[1] === 0x79;
  if (!long && !(buf[0] === 0x78 && buf[1] === 0x78)) fail('no start bits');
  const head = long ? 4 : 3;
  if (buf.length < head) return null;
  const length = long ? buf.readUInt16BE(2) : buf[2]!;
  if (length < 5) fail(`length ${length}`);
  const size = head + length + 2;
  if (size > max) fail(`frame of ${size} bytes`);
  if (buf.length < size) return null;
  if (buf[size - 2] !== 0x0d || buf[size - 1] !== 0x0a) fail('no stop bits');
  const crcAt = size - 4;
  if (buf.readUInt16BE(crcAt) !== crc16X25(buf, 2, crcAt)) return { size, frame: null };
  return {
    size,
    frame: { protocol: buf[head]!, content: buf.subarray(head + 1, crcAt - 2), serial: buf.readUInt16BE(crcAt - 2) },
  };
}

/** A frame around a protocol number and content (the server's answers and commands; a device's frames in tests). */
export function encodeGt06Frame(protocol: number, content: Buffer, serial: number): Buffer {
  const long = content.length + 5 > 0xff;
  const head = long ? 4 : 3;
  const out = Buffer.alloc(head + content.length + 7);
  out[0] = out[1] = long ? 0x79 : 0x78;
  if (long) out.writeUInt16BE(content.length + 5, 2);
  else out[2] = content.length + 5;
  out[head] = protocol;
  content.copy(out, head + 1);
  const crcAt = head + 1 + content.length + 2;
  out.writeUInt16BE(serial & 0xffff, crcAt - 2);
  out.writeUInt16BE(crc16X25(out, 2, crcAt), crcAt);
  out[crcAt + 2] = 0x0d;
  out[crcAt + 3] = 0x0a;
  return out;
}

/** The acknowledgement the device waits for: its protocol number and serial back. */
export const encodeGt06Ack = (protocol: number, serial: number) => encodeGt06Frame(protocol, Buffer.alloc(0), serial);

/** The login's terminal id: 8 bytes of BCD, the IMEI with a leading 0. */
export function loginImei(content: Buffer): string {
  if (content.length < 8) fail('short login');
  const digits = content.subarray(0, 8).toString('hex');
  if (!/^\d{16}$/.test(digits)) fail('login is not BCD');
  return digits.replace(/^0/, '');
}

/** Command 0x80: length, server flag (we use the command id), the ASCII text, language 0x0002 (English). */
export function encodeGt06Command(text: string, serverFlag: number, serial: number): Buffer {
  const body = Buffer.from(text, 'latin1');
  const content = Buffer.alloc(body.length + 7);
  content[0] = body.length + 4;
  content.writeUInt32BE(serverFlag >>> 0, 1);
  body.copy(content, 5);
  content.writeUInt16BE(0x0002, 5 + body.length);
  return encodeGt06Frame(GT06.command, content, serial);
}

/**
 * A command reply (0x15; 0x21 of the 4G models): the server flag it answers and
 * its text. Clones send a length byte of 0: then the flag is unknown (null)
 * and the text is whatever printable follows.
 */
export function readCommandReply(protocol: number, content: Buffer): { serverFlag: number | null; text: string } {
  if (protocol === GT06.reply4g) {
    if (content.length < 5) fail('short reply');
    return { serverFlag: content.readUInt32BE(0), text: printable(content.subarray(5)) };
  }
  const length = content[0] ?? 0;
  if (length < 4 || 1 + length > content.length) return { serverFlag: null, text: printable(content.subarray(1)) };
  return { serverFlag: content.readUInt32BE(1), text: printable(content.subarray(5, 1 + length)) };
}

const printable = (b: Buffer) =>
  b
    .toString('latin1')
    .replace(/[^\x20-\x7e]/g, '')
    .trim();

export interface Gt06Position {
  time: Date;
  satellites: number;
  lat: number;
  lng: number;
  /** km/h */
  speed: number;
  course: number;
  /** The fix is valid. */
  positioned: boolean;
}

/** Date, time (UTC) and the GPS block that opens every location and alarm frame (18 bytes). */
export function readPosition(c: Buffer): Gt06Position {
  if (c.length < 18) fail('short position');
  const [yy, mo, dd, hh, mi, ss] = [...c.subarray(0, 6)] as [number, number, number, number, number, number];
  const time = new Date(Date.UTC(2000 + yy, mo - 1, dd, hh, mi, ss));
  if (Number.isNaN(time.getTime()) || mo < 1 || mo > 12 || dd < 1 || dd > 31 || hh > 23 || mi > 59 || ss > 59)
    fail('bad date');
  const flags = c.readUInt16BE(16);
  const lat = c.readUInt32BE(7) / 1_800_000;
  const lng = c.readUInt32BE(11) / 1_800_000;
  return {
    time,
    satellites: c[6]! & 0x0f,
    lat: flags & 0x0400 ? lat : -lat, // bit 10: north
    lng: flags & 0x0800 ? -lng : lng, // bit 11: west
    speed: c[15]!,
    course: flags & 0x03ff,
    positioned: (flags & 0x1000) !== 0,
  };
}

/** The terminal-information byte and the two after it (heartbeat, alarm). */
export interface Gt06Status {
  ignition: boolean;
  /** Bit 7: "oil and electricity disconnected", the relay cut. */
  relayCut: boolean;
  charging: boolean;
  armed: boolean;
  /** Voltage level 0 (none) … 6 (very high), when sent. */
  voltageLevel: number | null;
  /** GSM signal 0 … 4, when sent. */
  gsmSignal: number | null;
  alarm: number | null;
}

export function readStatus(c: Buffer, at: number, alarmAt: number | null): Gt06Status {
  if (c.length <= at) fail('short status');
  const info = c[at]!;
  return {
    ignition: (info & 0x02) !== 0,
    relayCut: (info & 0x80) !== 0,
    charging: (info & 0x04) !== 0,
    armed: (info & 0x01) !== 0,
    voltageLevel: c.length > at + 1 ? c[at + 1]! : null,
    gsmSignal: c.length > at + 2 ? c[at + 2]! : null,
    alarm: alarmAt !== null && c.length > alarmAt ? c[alarmAt]! : null,
  };
}
