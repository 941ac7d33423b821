import { crc16Ibm } from './crc.js';

/**
 * Teltonika's binary protocol, from the vendor's "Codec" documents (wiki.teltonika-gps.com):
 * the IMEI login, Codec 8 and Codec 8 Extended AVL data, and Codec 12 commands and responses.
 * Every frame after the login is
 *   00000000 | data length (4) | codec id … number of data 2 | CRC-16/IBM of that part (4),
 * all big-endian. Pure functions over buffers; the connection lives in teltonika-listener.ts.
 */
export const CODEC_8 = 0x08;
export const CODEC_8E = 0x8e;
export const CODEC_12 = 0x0c;
const COMMAND_TYPE = 0x05;
const RESPONSE_TYPE = 0x06;
/** The largest frame we take: a full FMB buffer upload is ~1.3 kB, the Extended codec a few kB. */
export const TELTONIKA_MAX_FRAME = 64 * 1024;

export class FrameError extends Error {}

/** One IO value: 1, 2, 4 or 8 bytes as an unsigned number (bigint only beyond 2^53), or variable-length bytes (8E). */
export type IoValue = number | bigint | Buffer;

export interface AvlRecord {
  time: Date;
  priority: number;
  /** degrees */
  lng: number;
  lat: number;
  /** metres */
  altitude: number;
  /** degrees from north */
  angle: number;
  satellites: number;
  /** km/h */
  speed: number;
  /** The IO element that caused the record (0: periodic). */
  eventId: number;
  io: Map<number, IoValue>;
}

export type TeltonikaFrame =
  { kind: 'avl'; codec: typeof CODEC_8 | typeof CODEC_8E; records: AvlRecord[] } | { kind: 'response'; text: string };

/** The login: 2-byte length then the IMEI in ASCII. Null until complete; FrameError when it cannot be one. */
export function readLogin(buf: Buffer): { imei: string; size: number } | null {
  if (buf.length < 2) return null;
  const length = buf.readUInt16BE(0);
  if (length < 1 || length > 20) throw new FrameError(`login length ${length}`);
  if (buf.length < 2 + length) return null;
  const imei = buf.toString('latin1', 2, 2 + length);
  if (!/^\d{8,17}$/.test(imei)) throw new FrameError('login is not an IMEI');
  return { imei, size: 2 + length };
}

export const encodeLoginReply = (accepted: boolean) => Buffer.from([accepted ? 1 : 0]);

/** The acknowledgement of an AVL frame: the number of records taken, 4 bytes. */
export function encodeAck(count: number): Buffer {
  const out = Buffer.alloc(4);
  out.writeUInt32BE(count);
  return out;
}

/**
 * Reads one frame from the start of `buf`. Null: not complete yet. `size` is
 * what it took; `frame` is null when its CRC is wrong (the caller skips it
 * unacknowledged, so the device sends it again). FrameError: not a frame of
 * this protocol at all (the connection cannot be resynchronised).
 */
export function readFrame(
  buf: Buffer,
  max = TELTONIKA_MAX_FRAME,
): { size: number; frame: TeltonikaFrame | null } | null {
  if (buf.length < 8) return buf.subarray(0, 4).some((b) => b !== 0) ? fail('no preamble') : null;
  if (buf.readUInt32BE(0) !== 0) fail('no preamble');
  const length = buf.readUInt32BE(4);
  if (length < 3) fail(`data length ${length}`);
  if (length + 12 > max) fail(`frame of ${length + 12} bytes`);
  const size = length + 12;
  if (buf.length < size) return null;
  if (buf.readUInt32BE(8 + length) !== crc16Ibm(buf, 8, 8 + length)) return { size, frame: null };
  return { size, frame: parseData(buf.subarray(8, 8 + length)) };
}

function fail(why: string): never {
  throw new FrameError(why);
}

/** The data field: codec id, count, records or a command, count again. */
function parseData(data: Buffer): TeltonikaFrame {
  const r = new Reader(data);
  const codec = r.u8();
  const count = r.u8();
  if (codec === CODEC_8 || codec === CODEC_8E) {
    const records: AvlRecord[] = [];
    for (let i = 0; i < count; i++) records.push(readRecord(r, codec === CODEC_8E));
    if (r.u8() !== count) fail('record counts differ');
    r.end();
    return { kind: 'avl', codec, records };
  }
  if (codec === CODEC_12) {
    const type = r.u8();
    const text = r.bytes(r.u32()).toString('latin1');
    if (r.u8() !== count) fail('quantities differ');
    r.end();
    if (type !== RESPONSE_TYPE) fail(`codec 12 type ${type}`);
    return { kind: 'response', text };
  }
  return fail(`codec ${codec}`);
}

function readRecord(r: Reader, extended: boolean): AvlRecord {
  const ms = r.u64();
  const time = new Date(Number(ms));
  // A Date holds ±8.64e15 ms: a time past it is no time (toISOString would throw when it is stored).
  if (Number.isNaN(time.getTime())) fail(`record time ${ms} ms`);
  const priority = r.u8();
  const lng = r.i32() / 1e7;
  const lat = r.i32() / 1e7;
  const altitude = r.i16();
  const angle = r.u16();
  const satellites = r.u8();
  const speed = r.u16();
  const id = () => (extended ? r.u16() : r.u8());
  const eventId = id();
  id(); // total IO count: the groups below say it again
  const io = new Map<number, IoValue>();
  for (const width of [1, 2, 4, 8] as const) {
    const n = id();
    for (let i = 0; i < n; i++) io.set(id(), r.unsigned(width));
  }
  if (extended) {
    const n = r.u16();
    for (let i = 0; i < n; i++) io.set(r.u16(), r.bytes(r.u16()));
  }
  return { time, priority, lng, lat, altitude, angle, satellites, speed, eventId, io };
}

/** A Codec 12 command frame carrying `text` (e.g. `setdigout 1`). */
export function encodeCommand(text: string): Buffer {
  const body = Buffer.from(text, 'latin1');
  const data = Buffer.alloc(8 + body.length);
  data.writeUInt8(CODEC_12, 0);
  data.writeUInt8(1, 1);
  data.writeUInt8(COMMAND_TYPE, 2);
  data.writeUInt32BE(body.length, 3);
  body.copy(data, 7);
  data.writeUInt8(1, 7 + body.length);
  return wrap(data);
}

/** Preamble, length and CRC around a data field (also what a device does, for tests and the simulator). */
export function wrap(data: Buffer): Buffer {
  const out = Buffer.alloc(data.length + 12);
  out.writeUInt32BE(data.length, 4);
  data.copy(out, 8);
  out.writeUInt32BE(crc16Ibm(data), 8 + data.length);
  return out;
}

/** Bounds-checked big-endian reads: running past the end is a FrameError, never a RangeError later. */
class Reader {
  private at = 0;
  constructor(private readonly buf: Buffer) {}
  private take(n: number): number {
    if (this.at + n > this.buf.length) fail('truncated data');
    const start = this.at;
    this.at += n;
    return start;
  }
  u8 = () => this.buf.readUInt8(this.take(1));
  u16 = () => this.buf.readUInt16BE(this.take(2));
  i16 = () => this.buf.readInt16BE(this.take(2));
  u32 = () => this.buf.readUInt32BE(this.take(4));
  i32 = () => this.buf.readInt32BE(this.take(4));
  u64 = () => this.buf.readBigUInt64BE(this.take(8));
  bytes = (n: number) => {
    const start = this.take(n);
    return this.buf.subarray(start, start + n);
  };
  unsigned(width: 1 | 2 | 4 | 8): number | bigint {
    if (width === 1) return this.u8();
    if (width === 2) return this.u16();
    if (width === 4) return this.u32();
    const v = this.u64();
    return v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v;
  }
  end() {
    if (this.at !== this.buf.length) fail('trailing bytes');
  }
}
