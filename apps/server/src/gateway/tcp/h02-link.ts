import { defaultCommandTexts, type DeviceRecordInput } from '@fleet/contract';
import { KIND, seqOf } from './link-gateway.js';
import { linkProtocol, type LinkCodec, type LinkMessage } from './link-protocol.js';

/**
 * H02 (Sinotrack and the many relay-equipped trackers that copy it), from the
 * vendors' "H02 protocol" documents. Two forms share a connection:
 * - text: `*HQ,<id>,V1,hhmmss,A,ddmm.mmmm,N,dddmm.mmmm,E,<knots>,<course>,ddmmyy,<status hex>…#`,
 *   answered for V1 with `*HQ,<id>,V4,V1,<yyyyMMddHHmmss UTC>#`; a command's confirmation is
 *   `*HQ,<id>,V4,<command>,<DONE|ERROR|…>,…#`;
 * - binary: `$` then 31 bytes of BCD (id, time, date, latitude, battery, longitude with the
 *   hemisphere nibble, knots, course) and the status, never answered.
 * The status word is active low: a cleared bit is the condition. Speeds are knots, and the
 * degree digits vary (2-3, with or without the minutes' dot, even `-23-3.3408`).
 */
export const H02_MAX_FRAME = 1024;
const BINARY_SIZE = 32;
const KNOT = 1.852;

export class H02FrameError extends Error {}
const fail = (why: string): never => {
  throw new H02FrameError(why);
};

export interface H02Fix {
  id: string;
  time: Date;
  valid: boolean;
  lat: number;
  lng: number;
  /** km/h */
  speed: number;
  course: number;
  status: number | null;
}

/** Degrees from H02's coordinate text and hemisphere: `2828.2297`, `07733.4332`, `5241.1249`, `-23-3.3408`, `28282297`. */
export function h02Coordinate(value: string, hemisphere: string): number {
  let degrees: number;
  let minutes: number;
  const split = /^-(\d+)-(\d+(?:\.\d+)?)$/.exec(value);
  const dotted = /^(\d*?)(\d{1,2}\.\d+)$/.exec(value);
  const packed = /^(\d+)(\d\d)(\d{4})$/.exec(value);
  if (split) [degrees, minutes] = [Number(split[1]), Number(split[2])];
  else if (dotted) [degrees, minutes] = [Number(dotted[1] || 0), Number(dotted[2])];
  else if (packed) [degrees, minutes] = [Number(packed[1]), Number(`${packed[2]}.${packed[3]}`)];
  else return fail(`coordinate ${value}`);
  const v = degrees + minutes / 60;
  return hemisphere === 'S' || hemisphere === 'W' ? -v : v;
}

/** hhmmss + ddmmyy (UTC); null when either is missing. */
function h02Time(hms: string | undefined, dmy: string | undefined): Date | null {
  const t = /^(\d\d)(\d\d)(\d\d)/.exec(hms ?? '');
  const d = /^(\d\d)(\d\d)(\d\d)$/.exec(dmy ?? '');
  if (!t || !d) return null;
  const time = new Date(
    Date.UTC(2000 + Number(d[3]), Number(d[2]) - 1, Number(d[1]), Number(t[1]), Number(t[2]), Number(t[3])),
  );
  return Number.isNaN(time.getTime()) ? null : time;
}

/** A text position (V1, V19, VI1 …): fields after the type are time, validity, lat, N/S, lon, E/W, knots, course, [battery,] date, status. */
function textFix(f: string[], id: string, now: Date): H02Fix | null {
  const lat = f[5];
  const lng = f[7];
  if (!lat || !lng) return null;
  // Some models put a battery level between the course and the date.
  const d = !/^\d{6}$/.test(f[11] ?? '') && /^\d{6}$/.test(f[12] ?? '') ? 12 : 11;
  const s = f[d + 1];
  const status = s && /^[0-9a-f]{8}$/i.test(s) ? parseInt(s, 16) : null;
  return {
    id,
    time: h02Time(f[3], f[d]) ?? now,
    valid: f[4] === 'A',
    lat: h02Coordinate(lat, f[6] ?? 'N'),
    lng: h02Coordinate(lng, f[8] ?? 'E'),
    speed: Number(f[9] ?? 0) * KNOT || 0,
    course: Number(f[10] ?? 0) || 0,
    status,
  };
}

const bcd = (b: Buffer) => {
  const s = b.toString('hex');
  return /^\d+$/.test(s) ? s : fail('not BCD');
};

/** The 32-byte binary position. */
export function readH02Binary(b: Buffer): H02Fix {
  const id = bcd(b.subarray(1, 6));
  const time = h02Time(bcd(b.subarray(6, 9)), bcd(b.subarray(9, 12)));
  if (!time) fail('bad time');
  const lat = bcd(b.subarray(12, 16)); // ddmmmmmm
  const lngDigits = b.subarray(17, 22).toString('hex'); // dddmmmmmm + flags nibble
  if (!/^\d{9}[0-9a-f]$/.test(lngDigits)) fail('longitude is not BCD');
  const flags = parseInt(lngDigits[9]!, 16);
  const latV = Number(lat.slice(0, 2)) + Number(`${lat.slice(2, 4)}.${lat.slice(4)}`) / 60;
  const lngV = Number(lngDigits.slice(0, 3)) + Number(`${lngDigits.slice(3, 5)}.${lngDigits.slice(5, 9)}`) / 60;
  const motion = b.subarray(22, 25).toString('hex'); // knots (3 digits), course (3 digits)
  return {
    id,
    time: time!,
    valid: (flags & 0x02) !== 0,
    lat: flags & 0x04 ? latV : -latV,
    lng: flags & 0x08 ? lngV : -lngV,
    speed: (Number(motion.slice(0, 3)) || 0) * KNOT,
    course: Number(motion.slice(3, 6)) || 0,
    status: b.readUInt32BE(25),
  };
}

/**
 * A fix as our records: gps when valid; the status word (active low, as the vendors'
 * tables have it): bit 10 ACC → engine.running (set = on, as Traccar reads it), bit 27 the
 * fuel line cut (cleared = cut: the S20 confirmation's status) → engine.engine_line,
 * bits 1/18 SOS, 2 overspeed, 19 power cut → sensor.alarm.
 */
export function h02Records(x: H02Fix): DeviceRecordInput[] {
  const time = x.time.toISOString();
  const out: DeviceRecordInput[] = [];
  if (x.valid)
    out.push({
      type: 'gps',
      time,
      lat: round6(x.lat),
      lng: round6(x.lng),
      speed: Math.round(x.speed * 10) / 10,
      heading: Math.round(x.course) % 360,
    });
  if (x.status !== null) {
    const on = (bit: number) => (x.status! & (1 << bit)) !== 0;
    out.push({
      type: 'engine',
      time,
      running: on(10) ? 'on' : 'off',
      engine_line: on(27) ? 'connected' : 'disconnected',
    });
    const alarm = !on(1) || !on(18) ? 'sos' : !on(2) ? 'overspeed' : !on(19) ? 'power_cut' : null;
    if (alarm) out.push({ type: 'sensor', time, readings: { alarm } });
  }
  return out;
}

const round6 = (v: number) => Math.round(v * 1e6) / 1e6;

const utcStamp = (d: Date, form: 'time' | 'full') => {
  const iso = d.toISOString().replace(/\D/g, '');
  return form === 'time' ? iso.slice(8, 14) : iso.slice(0, 14);
};

/** One text message as a link message. */
export function h02TextMessage(sentence: string, now: Date): LinkMessage {
  const f = sentence.slice(1, -1).split(',');
  const id = f[1] ?? '';
  if (!/^\d{6,20}$/.test(id)) fail('no terminal id');
  const type = f[2] ?? '';
  if (type === 'V4') {
    // *HQ,<id>,V4,<command>,<result>,…: DONE / OK / a time (no word) is success; ERROR / FAIL is not.
    const result = f[4] ?? '';
    return {
      type: 'reply',
      id,
      key: null,
      success: !/error|fail/i.test(result),
      text: [f[3], result].filter(Boolean).join(','),
    };
  }
  if (/^V(I?1|19)$/.test(type)) {
    const fix = textFix(f, id, now);
    const ack = type === 'V1' ? Buffer.from(`*HQ,${id},V4,V1,${utcStamp(now, 'full')}#`, 'latin1') : null;
    if (!fix) return { type: 'answer', id, ack };
    return { type: 'data', id, seq: seqOf(fix.time, KIND.location), records: h02Records(fix), ack };
  }
  // Heartbeats (XT), cell towers (V3, NBR), LINK, HTBT …: the terminal is there; nothing to store.
  return { type: 'answer', id, ack: null };
}

/** H02 as a codec of the shared link (link-protocol.ts). */
export const h02Codec: LinkCodec = {
  name: 'h02',
  maxFrame: H02_MAX_FRAME,
  commands: defaultCommandTexts.h02!,
  read(buf, state, now) {
    const first = buf[0];
    if (first === undefined) return null;
    if (first === 0x0d || first === 0x0a) return { size: 1, message: { type: 'ignored' } };
    if (first === 0x2a /* * */) {
      const end = buf.indexOf(0x23 /* # */);
      if (end < 0) return buf.length > H02_MAX_FRAME ? fail('text over the limit') : null;
      return { size: end + 1, message: h02TextMessage(buf.toString('latin1', 0, end + 1), now) };
    }
    if (first === 0x24 /* $ */) {
      if (buf.length < BINARY_SIZE) return null;
      const fix = readH02Binary(buf.subarray(0, BINARY_SIZE));
      return {
        size: BINARY_SIZE,
        message: { type: 'data', id: fix.id, seq: seqOf(fix.time, KIND.location), records: h02Records(fix) },
      };
    }
    // A longer binary form's tail (cell or Wi-Fi data after the 32 bytes): skipped once logged in.
    if (state.terminal) {
      let n = 1;
      while (n < buf.length && buf[n] !== 0x2a && buf[n] !== 0x24) n++;
      return { size: n, message: { type: 'ignored' } };
    }
    return fail('no start mark');
  },
  command(text, state, _commandId) {
    const [type, ...params] = text.split(',');
    const id = state.terminal?.car_data_id ?? '';
    const line = [`*HQ`, id, type, utcStamp(new Date(), 'time'), ...params].join(',') + '#';
    return { bytes: Buffer.from(line, 'latin1'), key: null };
  },
};

export const h02Protocol = linkProtocol(h02Codec);
