import { GT06, encodeGt06Frame } from './gt06-codec.js';

/**
 * The device's side of the GT06 protocol: what a Concox terminal sends. Used
 * by the fleet simulator and the tests; the server never sends these.
 */
export function encodeGt06Login(imei: string, serial: number): Buffer {
  return encodeGt06Frame(GT06.login, Buffer.from(imei.padStart(16, '0'), 'hex'), serial);
}

export interface DeviceFix {
  time: Date;
  lat: number;
  lng: number;
  /** km/h */
  speed: number;
  course?: number;
  satellites?: number;
  acc: boolean;
}

/** A 0x22 location (GPS, LBS, ACC). */
export function encodeGt06Location(fix: DeviceFix, serial: number): Buffer {
  const c = Buffer.alloc(30);
  const t = fix.time;
  c.set(
    [
      t.getUTCFullYear() - 2000,
      t.getUTCMonth() + 1,
      t.getUTCDate(),
      t.getUTCHours(),
      t.getUTCMinutes(),
      t.getUTCSeconds(),
    ],
    0,
  );
  c[6] = 0xc0 | Math.min(15, fix.satellites ?? 9);
  c.writeUInt32BE(Math.round(Math.abs(fix.lat) * 1_800_000), 7);
  c.writeUInt32BE(Math.round(Math.abs(fix.lng) * 1_800_000), 11);
  c[15] = Math.min(255, Math.round(fix.speed));
  c.writeUInt16BE(
    0x1000 | (fix.lat >= 0 ? 0x0400 : 0) | (fix.lng < 0 ? 0x0800 : 0) | (Math.round(fix.course ?? 0) % 360),
    16,
  );
  c.writeUInt16BE(440, 18); // MCC Japan
  c[26] = fix.acc ? 1 : 0;
  return encodeGt06Frame(GT06.gpsLbs2, c, serial);
}

/** A heartbeat: status byte (ACC bit 1, relay cut bit 7), voltage level, GSM signal. */
export function encodeGt06Heartbeat(
  s: { acc: boolean; relayCut: boolean; voltageLevel: number; gsmSignal: number },
  serial: number,
): Buffer {
  const info = (s.acc ? 0x02 : 0) | (s.relayCut ? 0x80 : 0) | 0x40;
  return encodeGt06Frame(GT06.heartbeat, Buffer.from([info, s.voltageLevel, s.gsmSignal, 0x00, 0x02]), serial);
}

/** A 0x15 reply to the command with this server flag (flag null: a clone's zero length byte). */
export function encodeGt06Reply(serverFlag: number | null, text: string, serial: number): Buffer {
  const body = Buffer.from(text, 'latin1');
  if (serverFlag === null) return encodeGt06Frame(GT06.stringReply, Buffer.concat([Buffer.from([0]), body]), serial);
  const head = Buffer.alloc(5);
  head[0] = body.length + 4;
  head.writeUInt32BE(serverFlag >>> 0, 1);
  return encodeGt06Frame(GT06.stringReply, Buffer.concat([head, body, Buffer.from([0, 2])]), serial);
}

/** A 0x80 command from the server: its server flag and text, or null when `frame` is not one. */
export function readGt06Command(frame: Buffer): { serverFlag: number; text: string } | null {
  if (frame.length < 15 || frame[3] !== GT06.command) return null;
  const length = frame[4]!;
  return { serverFlag: frame.readUInt32BE(5), text: frame.toString('latin1', 9, 5 + length) };
}
