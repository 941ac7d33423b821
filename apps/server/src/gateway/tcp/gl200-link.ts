import { defaultCommandTexts, type DeviceRecordInput } from '@fleet/contract';
import { KIND, frameSeq } from './link-gateway.js';
import { linkProtocol, type LinkCodec, type LinkMessage } from './link-protocol.js';

/**
 * Queclink's @Track text protocol (GL200, GL300, GV200, GV300 …), from
 * Queclink's "@Track Air Interface Protocol" documents. Messages are
 * comma-separated and end in `$`:
 * - `+RESP:GTFRI,<version>,<imei>,<name>,…,<number>,{<accuracy>,<km/h>,<azimuth>,<altitude>,
 *   <longitude>,<latitude>,<UTC yyyyMMddHHmmss>,<mcc>,<mnc>,<lac>,<cell>,<reserved>}×number,…,<send time>,<count>$`:
 *   longitude before latitude, and one report may carry several fixes;
 * - `+RESP:GTIGN` / `GTIGF`: ignition on / off, with a fix;
 * - `+BUFF:…`: the same reports sent late from the device's buffer (stored as history, at their own times);
 * - `+ACK:GTHBD,<version>,<imei>,<name>,<send time>,<count>$`: the heartbeat, answered
 *   `+SACK:GTHBD,<version>,<count>$`;
 * - `+ACK:GTOUT,…$`: the device took an output command (the engine cut/restore).
 * The models differ in the fields before and after the fixes, so a fix is found by its
 * shape: speed, azimuth, altitude, longitude, latitude and a 14-digit UTC time.
 */
export const GL200_MAX_FRAME = 4096;

export class Gl200FrameError extends Error {}
const fail = (why: string): never => {
  throw new Gl200FrameError(why);
};

export interface Gl200Fix {
  time: Date;
  lat: number;
  lng: number;
  /** km/h */
  speed: number;
  course: number;
  altitude: number;
}

const decimal = /^-?\d+(\.\d+)?$/;

/** yyyyMMddHHmmss (UTC). */
export function gl200Time(v: string): Date | null {
  const m = /^(\d{4})(\d\d)(\d\d)(\d\d)(\d\d)(\d\d)$/.exec(v);
  if (!m) return null;
  const [y, mo, d, h, mi, s] = m.slice(1).map(Number) as [number, number, number, number, number, number];
  if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || s > 59) return null;
  return new Date(Date.UTC(y, mo - 1, d, h, mi, s));
}

/** Every fix of a report, in order; the send time near the end is not one (no coordinates before it). */
export function gl200Fixes(f: readonly string[]): Gl200Fix[] {
  const out: Gl200Fix[] = [];
  for (let i = 5; i < f.length; i++) {
    const time = /^\d{14}$/.test(f[i]!) ? gl200Time(f[i]!) : null;
    if (!time) continue;
    const [speed, course, altitude, lng, lat] = f.slice(i - 5, i);
    if (![lng, lat].every((v) => v !== undefined && decimal.test(v) && v.includes('.'))) continue;
    const la = Number(lat);
    const lo = Number(lng);
    if (Math.abs(la) > 90 || Math.abs(lo) > 180) continue;
    out.push({
      time,
      lat: la,
      lng: lo,
      speed: Number(speed) || 0,
      course: Number(course) || 0,
      altitude: Number(altitude) || 0,
    });
  }
  return out;
}

const round6 = (v: number) => Math.round(v * 1e6) / 1e6;

/** One message (with its `$`) as a link message. */
export function gl200Message(sentence: string, raw: Buffer, now: Date): LinkMessage {
  const f = sentence.replace(/\$$/, '').split(',');
  const [head = '', version = '', imei = ''] = f;
  if (!/^\d{8,20}$/.test(imei)) fail('no IMEI');
  const kind = /^\+(RESP|BUFF|ACK):GT([A-Z]{3})$/.exec(head);
  if (!kind) return fail(`message ${head.slice(0, 16)}`);
  const [, section, type] = kind;
  if (section === 'ACK') {
    if (type === 'HBD')
      return { type: 'answer', id: imei, ack: Buffer.from(`+SACK:GTHBD,${version},${f[f.length - 1]}$`, 'latin1') };
    if (type === 'OUT') return { type: 'reply', id: imei, key: null, success: true, text: sentence.slice(0, 120) };
    return { type: 'answer', id: imei, ack: null };
  }
  const records: DeviceRecordInput[] = [];
  const fixes = gl200Fixes(f);
  for (const x of fixes)
    records.push({
      type: 'gps',
      time: x.time.toISOString(),
      lat: round6(x.lat),
      lng: round6(x.lng),
      speed: x.speed,
      heading: Math.round(x.course) % 360,
    });
  if (type === 'IGN' || type === 'IGF') {
    const at = fixes[0]?.time ?? gl200Time(f[f.length - 2] ?? '') ?? now;
    records.push({ type: 'engine', time: at.toISOString(), running: type === 'IGN' ? 'on' : 'off' });
  }
  // The message is the batch: its count number makes it one of its own; each fix also has its record key.
  return { type: 'data', id: imei, seq: frameSeq(raw, KIND.avlFrame), records };
}

/** Queclink @Track as a codec of the shared link (link-protocol.ts). */
export const gl200Codec: LinkCodec = {
  name: 'gl200',
  maxFrame: GL200_MAX_FRAME,
  commands: defaultCommandTexts.gl200!,
  read(buf, _state, now) {
    const first = buf[0];
    if (first === undefined) return null;
    if (first === 0x0d || first === 0x0a) return { size: 1, message: { type: 'ignored' } };
    if (first !== 0x2b /* + */) fail('not an @Track text message');
    const end = buf.indexOf(0x24 /* $ */);
    if (end < 0) return buf.length > GL200_MAX_FRAME ? fail('message over the limit') : null;
    const raw = buf.subarray(0, end + 1);
    return { size: end + 1, message: gl200Message(raw.toString('latin1'), raw, now) };
  },
  command: (text) => ({ bytes: Buffer.from(text, 'latin1'), key: null }),
};

export const gl200Protocol = linkProtocol(gl200Codec);
