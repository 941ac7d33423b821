import { JT808, encodeJt808Frame, type Jt808Header } from './jt808-codec.js';

/**
 * The device's side of JT/T 808, H02, GPS103 and Queclink @Track: what such a
 * terminal sends. Used by the fleet simulator, the bench and the tests; the
 * server never sends these.
 */
export interface DeviceFix {
  time: Date;
  lat: number;
  lng: number;
  /** km/h */
  speed: number;
  course?: number;
  /** Ignition (ACC). */
  acc: boolean;
  /** The relay cut (start prohibited). */
  relayCut?: boolean;
}

const pad = (n: number, width: number) => String(Math.trunc(n)).padStart(width, '0');
const KNOT = 1.852;

/** Degrees as (d)ddmm.mmmm with `degreeDigits` digits of degrees. */
const degMin = (v: number, degreeDigits: number) => {
  const a = Math.abs(v);
  const d = Math.floor(a);
  const m = (a - d) * 60;
  return pad(d, degreeDigits) + m.toFixed(4).padStart(7, '0');
};

// --- JT/T 808 ---

/** The header form of a terminal id: 12 digits the 2013 form, 20 the 2019 one. */
export const jt808Header = (id: string): Jt808Header => ({
  edition2019: id.length === 20,
  version: id.length === 20 ? 1 : 0,
  phone: Buffer.from(id, 'hex'),
});

/** Registration 0x0100 (province, city, maker, model, terminal id, plate colour, plate). */
export function jt808Register(id: string, serial: number): Buffer {
  const h = jt808Header(id);
  const field = (s: string, n: number) => Buffer.from(s.padEnd(n, '\0').slice(0, n), 'latin1');
  const body = Buffer.concat([
    Buffer.from([0x00, 0x2c, 0x01, 0x2f]),
    field('70111', h.edition2019 ? 11 : 5),
    field('FLEET-SIM', h.edition2019 ? 30 : 20),
    field('SIM0001', h.edition2019 ? 30 : 7),
    Buffer.from([0x01]),
    Buffer.from('TEST', 'latin1'),
  ]);
  return encodeJt808Frame(JT808.register, h, serial, body);
}

export const jt808Authenticate = (id: string, code: string, serial: number) =>
  encodeJt808Frame(JT808.authenticate, jt808Header(id), serial, Buffer.from(code, 'latin1'));

export const jt808Heartbeat = (id: string, serial: number) =>
  encodeJt808Frame(JT808.heartbeat, jt808Header(id), serial, Buffer.alloc(0));

/** A location 0x0200 (time in BCD, GMT+8). */
export function jt808Location(id: string, fix: DeviceFix, serial: number): Buffer {
  const b = Buffer.alloc(28);
  const status =
    (fix.acc ? 0x01 : 0) | 0x02 | (fix.lat < 0 ? 0x04 : 0) | (fix.lng < 0 ? 0x08 : 0) | (fix.relayCut ? 0x0400 : 0);
  b.writeUInt32BE(status, 4);
  b.writeUInt32BE(Math.round(Math.abs(fix.lat) * 1e6), 8);
  b.writeUInt32BE(Math.round(Math.abs(fix.lng) * 1e6), 12);
  b.writeUInt16BE(Math.round(fix.speed * 10), 18);
  b.writeUInt16BE(Math.round(fix.course ?? 0) % 360, 20);
  const t = new Date(fix.time.getTime() + 8 * 3_600_000);
  const digits =
    pad(t.getUTCFullYear() % 100, 2) +
    pad(t.getUTCMonth() + 1, 2) +
    pad(t.getUTCDate(), 2) +
    pad(t.getUTCHours(), 2) +
    pad(t.getUTCMinutes(), 2) +
    pad(t.getUTCSeconds(), 2);
  Buffer.from(digits, 'hex').copy(b, 22);
  return encodeJt808Frame(JT808.location, jt808Header(id), serial, b);
}

/** The terminal's general reply 0x0001 to the server's message of this serial and id. */
export function jt808TerminalReply(id: string, serial: number, answered: { serial: number; id: number }, result = 0) {
  const b = Buffer.alloc(5);
  b.writeUInt16BE(answered.serial, 0);
  b.writeUInt16BE(answered.id, 2);
  b[4] = result;
  return encodeJt808Frame(JT808.terminalReply, jt808Header(id), serial, b);
}

// --- H02 ---

/** hhmmss / ddmmyy of a UTC time. */
const hms = (t: Date) => pad(t.getUTCHours(), 2) + pad(t.getUTCMinutes(), 2) + pad(t.getUTCSeconds(), 2);
const dmy = (t: Date) => pad(t.getUTCDate(), 2) + pad(t.getUTCMonth() + 1, 2) + pad(t.getUTCFullYear() % 100, 2);

/** The status word (active low): ACC is bit 10 set, the fuel line cut bit 27 cleared. */
const h02Status = (fix: DeviceFix) => {
  let s = ~(1 << 10);
  if (fix.acc) s |= 1 << 10;
  if (fix.relayCut) s &= ~(1 << 27);
  return (s >>> 0).toString(16).toUpperCase().padStart(8, '0');
};

const h02Position = (fix: DeviceFix) =>
  [
    hms(fix.time),
    'A',
    degMin(fix.lat, 2),
    fix.lat < 0 ? 'S' : 'N',
    degMin(fix.lng, 3),
    fix.lng < 0 ? 'W' : 'E',
    (fix.speed / KNOT).toFixed(2),
    pad(fix.course ?? 0, 3),
    dmy(fix.time),
    h02Status(fix),
  ].join(',');

export const h02V1 = (id: string, fix: DeviceFix) => Buffer.from(`*HQ,${id},V1,${h02Position(fix)}#`, 'latin1');

/** The confirmation of a command (`S20`), DONE or ERROR, with the position after it. */
export const h02Confirm = (id: string, command: string, ok: boolean, fix: DeviceFix) =>
  Buffer.from(`*HQ,${id},V4,${command},${ok ? 'DONE' : 'ERROR'},${hms(fix.time)},${h02Position(fix)}#`, 'latin1');

// --- GPS103 ---

export const gps103Login = (imei: string) => Buffer.from(`##,imei:${imei},A;`, 'latin1');
export const gps103Heartbeat = (imei: string) => Buffer.from(`${imei};`, 'latin1');

/** A position line; the device's clock is `offsetMinutes` ahead of UTC (Japan: 540). */
export function gps103Position(imei: string, fix: DeviceFix, keyword = 'tracker', offsetMinutes = 540): Buffer {
  const l = new Date(fix.time.getTime() + offsetMinutes * 60_000);
  const local =
    pad(l.getUTCFullYear() % 100, 2) +
    pad(l.getUTCMonth() + 1, 2) +
    pad(l.getUTCDate(), 2) +
    pad(l.getUTCHours(), 2) +
    pad(l.getUTCMinutes(), 2);
  const line = [
    `imei:${imei}`,
    keyword,
    local,
    '',
    'F',
    `${hms(fix.time)}.000`,
    'A',
    degMin(fix.lat, 2),
    fix.lat < 0 ? 'S' : 'N',
    degMin(fix.lng, 3),
    fix.lng < 0 ? 'W' : 'E',
    (fix.speed / KNOT).toFixed(2),
    String(Math.round(fix.course ?? 0)),
  ].join(',');
  return Buffer.from(`${line};`, 'latin1');
}

// --- Queclink @Track ---

const utc14 = (t: Date) => t.toISOString().replace(/\D/g, '').slice(0, 14);
const hex4 = (n: number) => (n & 0xffff).toString(16).toUpperCase().padStart(4, '0');
const glFix = (f: DeviceFix) =>
  [
    '1',
    f.speed.toFixed(1),
    String(Math.round(f.course ?? 0)),
    '40.0',
    f.lng.toFixed(6),
    f.lat.toFixed(6),
    utc14(f.time),
    '0440',
    '0010',
    '1234',
    '5678',
    '00',
  ].join(',');

export const gl200Fri = (imei: string, fixes: readonly DeviceFix[], count: number, sent = new Date()) =>
  Buffer.from(
    `+RESP:GTFRI,300400,${imei},GL300,0,0,${fixes.length},${fixes.map(glFix).join(',')},98,${utc14(sent)},${hex4(count)}$`,
    'latin1',
  );
export const gl200Ignition = (imei: string, on: boolean, fix: DeviceFix, count: number) =>
  Buffer.from(
    `+RESP:GT${on ? 'IGN' : 'IGF'},300400,${imei},GL300,60,${glFix(fix)},,0.0,${utc14(fix.time)},${hex4(count)}$`,
    'latin1',
  );
export const gl200Heartbeat = (imei: string, count: number, sent = new Date()) =>
  Buffer.from(`+ACK:GTHBD,300400,${imei},GL300,${utc14(sent)},${hex4(count)}$`, 'latin1');
export const gl200OutAck = (imei: string, count: number, sent = new Date()) =>
  Buffer.from(`+ACK:GTOUT,300400,${imei},GL300,FFFF,${utc14(sent)},${hex4(count)}$`, 'latin1');
