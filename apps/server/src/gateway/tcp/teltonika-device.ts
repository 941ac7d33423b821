import { CODEC_8, CODEC_8E, CODEC_12, wrap } from './teltonika-codec.js';

/**
 * The device's side of the Teltonika protocol: what an FMB terminal sends.
 * Used by the fleet simulator and the tests; the server never sends these.
 */
export interface DeviceAvl {
  time: Date;
  lat: number;
  lng: number;
  /** km/h */
  speed: number;
  angle?: number;
  satellites?: number;
  /** IO elements by id; values up to 0xFF go as 1 byte, up to 0xFFFF as 2, else 4. */
  io?: Record<number, number>;
}

export function encodeLogin(imei: string): Buffer {
  const out = Buffer.alloc(2 + imei.length);
  out.writeUInt16BE(imei.length);
  out.write(imei, 2, 'latin1');
  return out;
}

/** A Codec 8 AVL frame of these records; with `extended`, Codec 8 Extended (IO ids and counts in 2 bytes). */
export function encodeAvlFrame(records: readonly DeviceAvl[], opts: { extended?: boolean } = {}): Buffer {
  const extended = opts.extended ?? false;
  // An IO id or count: 1 byte in Codec 8, 2 in Codec 8 Extended.
  const id = (n: number) => (extended ? [n >> 8, n & 0xff] : [n]);
  const parts: Buffer[] = [Buffer.from([extended ? CODEC_8E : CODEC_8, records.length])];
  for (const r of records) {
    const head = Buffer.alloc(24);
    head.writeBigUInt64BE(BigInt(r.time.getTime()), 0);
    head.writeInt32BE(Math.round(r.lng * 1e7), 9);
    head.writeInt32BE(Math.round(r.lat * 1e7), 13);
    head.writeUInt16BE(Math.round(r.angle ?? 0) % 360, 19);
    head.writeUInt8(r.satellites ?? 9, 21);
    head.writeUInt16BE(Math.round(r.speed), 22);
    const io = Object.entries(r.io ?? {}).map(([id, v]) => [Number(id), v] as const);
    const groups = [1, 2, 4].map((width) => io.filter(([, v]) => widthOf(v) === width));
    const body: number[] = [...id(0), ...id(io.length)];
    for (const [i, group] of groups.entries()) {
      body.push(...id(group.length));
      for (const [ioId, v] of group) {
        body.push(...id(ioId));
        const b = Buffer.alloc(1 << i);
        b.writeUIntBE(v, 0, 1 << i);
        body.push(...b);
      }
    }
    body.push(...id(0)); // no 8-byte values
    if (extended) body.push(0, 0); // no variable-length values
    parts.push(head, Buffer.from(body));
  }
  parts.push(Buffer.from([records.length]));
  return wrap(Buffer.concat(parts));
}

const widthOf = (v: number) => (v <= 0xff ? 1 : v <= 0xffff ? 2 : 4);

/** A Codec 12 response (type 06) with the device's answer text. */
export function encodeResponse(text: string): Buffer {
  const body = Buffer.from(text, 'latin1');
  const data = Buffer.alloc(8 + body.length);
  data.writeUInt8(CODEC_12, 0);
  data.writeUInt8(1, 1);
  data.writeUInt8(0x06, 2);
  data.writeUInt32BE(body.length, 3);
  body.copy(data, 7);
  data.writeUInt8(1, 7 + body.length);
  return wrap(data);
}

/** The text of a Codec 12 command frame from the server, or null when `frame` is not one. */
export function commandTextOf(frame: Buffer): string | null {
  if (frame.length < 20 || frame[8] !== CODEC_12 || frame[10] !== 0x05) return null;
  return frame.toString('latin1', 15, 15 + frame.readUInt32BE(11));
}
