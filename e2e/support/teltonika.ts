/**
 * The device side of Teltonika's protocol, as much as the browser tests need (a tracker
 * on the server's TELTONIKA_PORT). Built from the vendor's Codec 8 / Codec 12 documents;
 * the server's own codec is apps/server/src/gateway/tcp/teltonika-codec.ts.
 */
const crc16Ibm = (data: Buffer) => {
  let crc = 0;
  for (const byte of data) {
    crc ^= byte;
    for (let bit = 0; bit < 8; bit++) crc = crc & 1 ? (crc >>> 1) ^ 0xa001 : crc >>> 1;
  }
  return crc;
};

/** Preamble, data length, data, CRC. */
const wrap = (data: Buffer) => {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 4);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc16Ibm(data));
  return Buffer.concat([head, data, crc]);
};

export const encodeLogin = (imei: string) =>
  Buffer.concat([Buffer.from([0, imei.length]), Buffer.from(imei, 'latin1')]);

/** A Codec 8 frame of one record; IO values (ids < 256) go as 1-byte values up to 255, else 2 bytes. */
export function encodeAvlRecord(r: {
  time: Date;
  lat: number;
  lng: number;
  speed: number;
  io: Record<number, number>;
}) {
  const gps = Buffer.alloc(24);
  gps.writeBigUInt64BE(BigInt(r.time.getTime()), 0);
  gps.writeInt32BE(Math.round(r.lng * 1e7), 9);
  gps.writeInt32BE(Math.round(r.lat * 1e7), 13);
  gps.writeUInt8(9, 21);
  gps.writeUInt16BE(r.speed, 22);
  const entries = Object.entries(r.io).map(([id, v]) => [Number(id), v] as const);
  const one = entries.filter(([, v]) => v <= 0xff);
  const two = entries.filter(([, v]) => v > 0xff);
  const io = [
    0,
    entries.length,
    one.length,
    ...one.flatMap(([id, v]) => [id, v]),
    two.length,
    ...two.flatMap(([id, v]) => [id, v >> 8, v & 0xff]),
    0,
    0,
  ];
  return wrap(Buffer.concat([Buffer.from([0x08, 1]), gps, Buffer.from(io), Buffer.from([1])]));
}

/** A Codec 12 response (type 06). */
export function encodeResponse(text: string) {
  const size = Buffer.alloc(4);
  size.writeUInt32BE(text.length);
  return wrap(Buffer.concat([Buffer.from([0x0c, 1, 0x06]), size, Buffer.from(text, 'latin1'), Buffer.from([1])]));
}

/** The text of a Codec 12 command (type 05) from the server. */
export const commandTextOf = (frame: Buffer) =>
  frame[8] === 0x0c && frame[10] === 0x05 ? frame.toString('latin1', 15, 15 + frame.readUInt32BE(11)) : null;
