import { defaultCommandTexts, type DeviceRecordInput } from '@fleet/contract';
import { KIND, seqOf } from './link-gateway.js';
import { linkProtocol, type LinkCodec, type LinkMessage } from './link-protocol.js';
import { h02Coordinate } from './h02-link.js';

/**
 * GPS103 / TK103 (Coban and its clones), from Coban's "GPRS data protocol"
 * (TK102/TK103/TK104/TK106). Text lines ending in `;` (some firmware: a new line):
 * - `##,imei:<imei>,A;` the login, answered `LOAD` (without it the tracker stops);
 * - `<imei>;` the heartbeat, answered `ON`;
 * - `imei:<imei>,<keyword>,<local yymmddHHMM>,<phone>,F,<UTC hhmmss.sss>,A,<lat>,N,<lon>,E,<knots>,<course>…;`
 *   a position (`L` instead of `F`: no fix, cell ids follow). The date and minutes
 *   are the device's local clock, the seconds and the fix time UTC: the offset is
 *   the local minus the UTC hours and minutes.
 * Engine stop/resume: `**,imei:<imei>,J` / `K`; the tracker confirms with a line
 * whose keyword is `jt` / `kt`.
 */
export const GPS103_MAX_FRAME = 2048;
const KNOT = 1.852;

export class Gps103FrameError extends Error {}
const fail = (why: string): never => {
  throw new Gps103FrameError(why);
};

/** Keywords that are alarms, by our reading name. */
const ALARMS: Record<string, string> = {
  'help me': 'sos',
  'low battery': 'low_battery',
  stockade: 'fence',
  move: 'displacement',
  speed: 'overspeed',
  'ac alarm': 'power_cut',
  'door alarm': 'door',
  'sensor alarm': 'vibration',
  'acc alarm': 'acc',
};

/**
 * The fix time: the local date with the local hour and minute, the UTC fix's seconds, less the
 * local clock's offset (local hh:mm minus UTC hh:mm, folded into ±12 h).
 */
export function gps103Time(local: string, utc: string): Date | null {
  const l = /^(\d\d)\/?(\d\d)\/?(\d\d) ?(\d\d):?(\d\d)/.exec(local);
  const u = /^(\d\d)(\d\d)(\d\d)/.exec(utc);
  if (!l || !u) return null;
  const [yy, mo, dd, lh, lm] = l.slice(1).map(Number) as [number, number, number, number, number];
  const [uh, um, us] = u.slice(1).map(Number) as [number, number, number];
  let offset = (lh - uh) * 60 + (lm - um);
  if (offset <= -12 * 60) offset += 24 * 60;
  else if (offset > 12 * 60) offset -= 24 * 60;
  const t = Date.UTC(2000 + yy, mo - 1, dd, lh, lm, us) - offset * 60_000;
  return Number.isNaN(t) ? null : new Date(t);
}

/** A position line as our records (gps when the fix is valid; acc on/off and the alarm keywords). */
export function gps103Records(f: string[], now: Date): { time: Date; records: DeviceRecordInput[] } {
  const keyword = f[1] ?? '';
  const fixed = f[4] === 'F';
  const time = (fixed && gps103Time(f[2] ?? '', f[5] ?? '')) || now;
  const iso = time.toISOString();
  const records: DeviceRecordInput[] = [];
  if (fixed && f[6] === 'A' && f[7] && f[9]) {
    // Some firmware put the hemisphere before the number: `A,N,5306.64155,E,00700.77848`.
    const [lat, ns, lon, ew] = /^[NS]$/.test(f[7]) ? [f[8]!, f[7], f[10]!, f[9]] : [f[7], f[8]!, f[9], f[10]!];
    records.push({
      type: 'gps',
      time: iso,
      lat: round6(h02Coordinate(lat, ns)),
      lng: round6(h02Coordinate(lon, ew)),
      speed: Math.round((Number(f[11]) || 0) * KNOT * 10) / 10,
      heading: Math.round(Number(f[12]) || 0) % 360,
    });
  }
  const ignition = keyword === 'acc on' ? 'on' : keyword === 'acc off' ? 'off' : null;
  if (ignition) records.push({ type: 'engine', time: iso, running: ignition });
  const alarm = ALARMS[keyword];
  if (alarm) records.push({ type: 'sensor', time: iso, readings: { alarm } });
  return { time, records };
}

const round6 = (v: number) => Math.round(v * 1e6) / 1e6;

/** One line (without its terminator) as a link message. */
export function gps103Message(line: string, now: Date): LinkMessage {
  const login = /^##,imei:(\d+),/.exec(line);
  if (login)
    return { type: 'login', id: login[1]!, answer: (accepted) => (accepted ? Buffer.from('LOAD', 'latin1') : null) };
  if (/^\d{15}$/.test(line)) return { type: 'answer', id: line, ack: Buffer.from('ON', 'latin1') };
  const at = line.indexOf('imei:');
  if (at < 0) return fail('not a GPS103 line');
  const f = line.slice(at + 5).split(',');
  const id = f[0] ?? '';
  if (!/^\d{8,20}$/.test(id)) fail('no IMEI');
  const keyword = f[1] ?? '';
  if (keyword === 'jt' || keyword === 'kt')
    return { type: 'reply', id, key: null, success: true, text: keyword === 'jt' ? 'jt (stopped)' : 'kt (resumed)' };
  // A line of an OBD reading, a photo, an RFID … carries no fix of this form: kept as the terminal's sign of life.
  if (keyword === 'OBD' || keyword.startsWith('vr') || keyword.startsWith('vt'))
    return { type: 'answer', id, ack: null };
  const { time, records } = gps103Records(f, now);
  return { type: 'data', id, seq: seqOf(time, KIND.location), records };
}

/** GPS103 as a codec of the shared link (link-protocol.ts). */
export const gps103Codec: LinkCodec = {
  name: 'gps103',
  maxFrame: GPS103_MAX_FRAME,
  commands: defaultCommandTexts.gps103!,
  read(buf, _state, now) {
    let end = -1;
    for (let i = 0; i < buf.length; i++)
      if (buf[i] === 0x3b /* ; */ || buf[i] === 0x0a) {
        end = i;
        break;
      }
    if (end < 0) return buf.length > GPS103_MAX_FRAME ? fail('line over the limit') : null;
    const line = buf.toString('latin1', 0, end).trim();
    if (line === '') return { size: end + 1, message: { type: 'ignored' } };
    return { size: end + 1, message: gps103Message(line, now) };
  },
  command(text, state) {
    return { bytes: Buffer.from(`**,imei:${state.terminal?.car_data_id ?? ''},${text}`, 'latin1'), key: null };
  },
};

export const gps103Protocol = linkProtocol(gps103Codec);
