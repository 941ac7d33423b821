/**
 * JT/T 808 (the Chinese national standard for vehicle terminals: Concox/Jimi
 * 4G models, most "808" trackers), from the standard's 2013 and 2019 texts.
 * A frame on the wire is
 *   7E | message id (2) | attributes (2) | [version (1), 2019] | phone (6 BCD; 10 in 2019) | serial (2)
 *      | [packet count and index (2+2) when split] | body | check (1) | 7E
 * with 7E inside written as 7D 02 and 7D as 7D 01; the check code is the XOR
 * of every byte from the message id to the end of the body. Attributes: bits
 * 0-9 the body length, bit 13 split, bit 14 the 2019 edition. Pure functions
 * over buffers; the connection is jt808-link.ts.
 */
export const JT808 = {
  terminalReply: 0x0001,
  heartbeat: 0x0002,
  logout: 0x0003,
  register: 0x0100,
  authenticate: 0x0102,
  location: 0x0200,
  batch: 0x0704,
  serverReply: 0x8001,
  registerReply: 0x8100,
  terminalControl: 0x8105,
} as const;
export const JT808_MAX_FRAME = 2048;

export class Jt808FrameError extends Error {}
const fail = (why: string): never => {
  throw new Jt808FrameError(why);
};

/** How the terminal wrote its header: the replies are written the same way (a 2019 terminal wants 2019 replies). */
export interface Jt808Header {
  edition2019: boolean;
  /** The 2019 header's protocol version byte. */
  version: number;
  /** The phone number as sent (6 or 10 bytes of BCD). */
  phone: Buffer;
}

export interface Jt808Frame extends Jt808Header {
  id: number;
  serial: number;
  body: Buffer;
  /** The phone number's digits: the terminal id (12 digits; 20 in the 2019 edition). */
  terminalId: string;
}

/**
 * Reads one frame from the start of `buf`. Null: not complete yet. `frame`
 * null: skipped (wrong check code, a stray 7E). Jt808FrameError: not this protocol.
 */
export function readJt808Frame(buf: Buffer, max = JT808_MAX_FRAME): { size: number; frame: Jt808Frame | null } | null {
  if (buf.length === 0) return null;
  if (buf[0] !== 0x7e) fail('no start flag');
  // Two flags in a row: the end of one frame and the start of the next, as some terminals send them.
  if (buf.length >= 2 && buf[1] === 0x7e) return { size: 1, frame: null };
  const end = buf.indexOf(0x7e, 1);
  if (end < 0) return buf.length > max ? fail(`frame over ${max} bytes`) : null;
  const size = end + 1;
  const data = unescape(buf.subarray(1, end));
  if (data.length < 13) fail('short frame');
  const check = data[data.length - 1]!;
  if (xor(data, 0, data.length - 1) !== check) return { size, frame: null };
  const id = data.readUInt16BE(0);
  const attributes = data.readUInt16BE(2);
  const edition2019 = (attributes & 0x4000) !== 0;
  const split = (attributes & 0x2000) !== 0;
  const length = attributes & 0x03ff;
  let at = 4;
  const version = edition2019 ? data[at++]! : 0;
  const phoneLength = edition2019 ? 10 : 6;
  const phone = data.subarray(at, at + phoneLength);
  at += phoneLength;
  if (data.length < at + 3) fail('short header');
  const serial = data.readUInt16BE(at);
  at += 2 + (split ? 4 : 0);
  const body = data.subarray(at, data.length - 1);
  if (body.length !== length) fail(`body of ${body.length} bytes, header says ${length}`);
  const terminalId = phone.toString('hex');
  if (!/^\d+$/.test(terminalId)) fail('phone number is not BCD');
  return {
    size,
    frame: { id, serial, body, terminalId, edition2019, version, phone: Buffer.from(phone) },
  };
}

function unescape(b: Buffer): Buffer {
  if (!b.includes(0x7d)) return b;
  const out: number[] = [];
  for (let i = 0; i < b.length; i++) {
    if (b[i] !== 0x7d) {
      out.push(b[i]!);
      continue;
    }
    const next = b[++i];
    if (next === 0x02) out.push(0x7e);
    else if (next === 0x01) out.push(0x7d);
    else fail('bad escape');
  }
  return Buffer.from(out);
}

const xor = (b: Uint8Array, start: number, end: number) => {
  let x = 0;
  for (let i = start; i < end; i++) x ^= b[i]!;
  return x;
};

/** A frame from the server (or, in tests and the simulator, a terminal) in the header form `h`. */
export function encodeJt808Frame(id: number, h: Jt808Header, serial: number, body: Buffer): Buffer {
  const head = Buffer.alloc(4 + (h.edition2019 ? 1 : 0));
  head.writeUInt16BE(id, 0);
  head.writeUInt16BE((body.length & 0x03ff) | (h.edition2019 ? 0x4000 : 0), 2);
  if (h.edition2019) head[4] = h.version || 1;
  const serialBytes = Buffer.alloc(2);
  serialBytes.writeUInt16BE(serial & 0xffff);
  const data = Buffer.concat([head, h.phone, serialBytes, body]);
  const raw = Buffer.concat([data, Buffer.from([xor(data, 0, data.length)])]);
  const out: number[] = [0x7e];
  for (const byte of raw) {
    if (byte === 0x7e) out.push(0x7d, 0x02);
    else if (byte === 0x7d) out.push(0x7d, 0x01);
    else out.push(byte);
  }
  out.push(0x7e);
  return Buffer.from(out);
}

/** The general reply 0x8001: the serial and id of the message answered, and the result (0 success, 1 failure). */
export function encodeServerReply(h: Jt808Header, serial: number, answered: Jt808Frame, result = 0): Buffer {
  const body = Buffer.alloc(5);
  body.writeUInt16BE(answered.serial, 0);
  body.writeUInt16BE(answered.id, 2);
  body[4] = result;
  return encodeJt808Frame(JT808.serverReply, h, serial, body);
}

/** The registration reply 0x8100: the serial answered, the result (0 registered, 4 no such terminal) and the authentication code. */
export function encodeRegisterReply(h: Jt808Header, serial: number, answered: number, code: string | null): Buffer {
  const head = Buffer.alloc(3);
  head.writeUInt16BE(answered, 0);
  head[2] = code === null ? 4 : 0;
  return encodeJt808Frame(JT808.registerReply, h, serial, Buffer.concat([head, Buffer.from(code ?? '', 'latin1')]));
}

/** The terminal's general reply 0x0001: the server serial it answers, the message id and its result. */
export function readTerminalReply(body: Buffer): { serial: number; id: number; result: number } {
  if (body.length < 5) fail('short terminal reply');
  return { serial: body.readUInt16BE(0), id: body.readUInt16BE(2), result: body[4]! };
}

export interface Jt808Location {
  alarm: number;
  status: number;
  lat: number;
  lng: number;
  /** metres */
  altitude: number;
  /** km/h */
  speed: number;
  course: number;
  time: Date;
  /** Additional items by id (0x01 mileage, 0x30 signal, 0x31 satellites …). */
  extra: Map<number, Buffer>;
}

/** A location body (0x0200, and each item of 0x0704): 28 bytes, then additional items (id, length, value). */
export function readLocation(b: Buffer): Jt808Location {
  if (b.length < 28) fail('short location');
  const status = b.readUInt32BE(4);
  const lat = b.readUInt32BE(8) / 1e6;
  const lng = b.readUInt32BE(12) / 1e6;
  const extra = new Map<number, Buffer>();
  for (let at = 28; at + 2 <= b.length;) {
    const id = b[at]!;
    const length = b[at + 1]!;
    if (at + 2 + length > b.length) break; // a truncated trailing item: the fix itself is whole
    extra.set(id, b.subarray(at + 2, at + 2 + length));
    at += 2 + length;
  }
  return {
    alarm: b.readUInt32BE(0),
    status,
    lat: status & 0x04 ? -lat : lat, // bit 2: south
    lng: status & 0x08 ? -lng : lng, // bit 3: west
    altitude: b.readInt16BE(16),
    speed: b.readUInt16BE(18) / 10,
    course: b.readUInt16BE(20),
    time: bcdTime(b.subarray(22, 28)),
    extra,
  };
}

/** YYMMDDhhmmss in BCD, Beijing time (GMT+8), as the standard has it. */
export function bcdTime(b: Buffer): Date {
  const digits = b.toString('hex');
  if (!/^\d{12}$/.test(digits)) fail('time is not BCD');
  const [yy, mo, dd, hh, mi, ss] = digits.match(/\d\d/g)!.map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  if (mo < 1 || mo > 12 || dd < 1 || dd > 31 || hh > 23 || mi > 59 || ss > 59) fail('bad time');
  return new Date(Date.UTC(2000 + yy, mo - 1, dd, hh - 8, mi, ss));
}

/** The items of a batch upload 0x0704: count, type (0 regular, 1 a blind-area backfill), then length-prefixed location bodies. */
export function readBatch(b: Buffer): { backfill: boolean; locations: Jt808Location[] } {
  if (b.length < 3) fail('short batch');
  const count = b.readUInt16BE(0);
  const locations: Jt808Location[] = [];
  let at = 3;
  for (let i = 0; i < count; i++) {
    if (at + 2 > b.length) fail('truncated batch');
    const length = b.readUInt16BE(at);
    if (at + 2 + length > b.length) fail('truncated batch item');
    locations.push(readLocation(b.subarray(at + 2, at + 2 + length)));
    at += 2 + length;
  }
  return { backfill: b[2] === 1, locations };
}
