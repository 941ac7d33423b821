import type { DeviceRecordInput } from '@fleet/contract';
import {
  GT06,
  loginImei,
  readCommandReply,
  readPosition,
  readStatus,
  type Gt06Frame,
  type Gt06Status,
} from './gt06-codec.js';

/**
 * A GT06 frame as the records of our own protocol (docs/device-protocol.md §3.2):
 *   the fix → gps (only when the device says it is positioned);
 *   ACC (0x22's ACC byte, the status byte's bit 1) → engine.running;
 *   the status byte's bit 7 (relay cut) → engine.engine_line (disconnected = 禁止中);
 *   voltage level, GSM signal, charging, armed, alarm → sensor.readings.
 * A heartbeat has no time of its own: it is timed when it arrived.
 */
export type Gt06Message =
  | { type: 'login'; imei: string }
  | { type: 'data'; time: Date; records: DeviceRecordInput[] }
  | { type: 'reply'; serverFlag: number | null; text: string }
  | { type: 'ignored' };

const ALARMS: Record<number, string> = {
  0x01: 'sos',
  0x02: 'power_cut',
  0x03: 'vibration',
  0x04: 'fence_in',
  0x05: 'fence_out',
  0x06: 'overspeed',
  0x09: 'displacement',
  0x0e: 'low_battery',
};

/** Frames the device waits an acknowledgement for (its protocol number and serial back). */
export const acknowledged = new Set<number>([
  GT06.login,
  GT06.heartbeat,
  GT06.gps,
  GT06.gpsLbs,
  GT06.gpsLbs2,
  GT06.alarm,
  GT06.alarm2,
  GT06.alarm3,
]);

export function decodeGt06(frame: Gt06Frame, now: Date): Gt06Message {
  const c = frame.content;
  switch (frame.protocol) {
    case GT06.login:
      return { type: 'login', imei: loginImei(c) };
    case GT06.heartbeat:
      return { type: 'data', time: now, records: statusRecords(now.toISOString(), readStatus(c, 0, null)) };
    case GT06.gps:
    case GT06.gpsLbs:
      return location(c, null);
    case GT06.gpsLbs2:
      return location(c, c.length > 26 ? c[26] === 1 : null);
    case GT06.alarm:
    case GT06.alarm2:
    case GT06.alarm3: {
      const at = 18 + Math.max(1, c[18] ?? 0);
      const msg = location(c, null);
      return { ...msg, records: [...msg.records, ...statusRecords(msg.time.toISOString(), readStatus(c, at, at + 3))] };
    }
    case GT06.stringReply:
    case GT06.reply4g:
      return { type: 'reply', ...readCommandReply(frame.protocol, c) };
    default:
      return { type: 'ignored' };
  }
}

function location(c: Buffer, acc: boolean | null): { type: 'data'; time: Date; records: DeviceRecordInput[] } {
  const p = readPosition(c);
  const time = p.time.toISOString();
  const records: DeviceRecordInput[] = [];
  if (p.positioned) {
    records.push({
      type: 'gps',
      time,
      lat: round6(p.lat),
      lng: round6(p.lng),
      speed: p.speed,
      heading: p.course % 360,
      satellites: p.satellites,
    });
  }
  if (acc !== null) records.push({ type: 'engine', time, running: acc ? 'on' : 'off' });
  return { type: 'data', time: p.time, records };
}

function statusRecords(time: string, s: Gt06Status): DeviceRecordInput[] {
  const readings: Record<string, number | boolean | string> = { charging: s.charging, armed: s.armed };
  if (s.voltageLevel !== null) readings.voltage_level = s.voltageLevel;
  if (s.gsmSignal !== null) readings.gsm_signal = s.gsmSignal;
  if (s.alarm) readings.alarm = ALARMS[s.alarm] ?? `0x${s.alarm.toString(16).padStart(2, '0')}`;
  return [
    {
      type: 'engine',
      time,
      running: s.ignition ? 'on' : 'off',
      engine_line: s.relayCut ? 'disconnected' : 'connected',
    },
    { type: 'sensor', time, readings },
  ];
}

const round6 = (v: number) => Math.round(v * 1e6) / 1e6;

/** Success or failure from a reply's text: Concox answers e.g. "Cut off the fuel supply: Success!" or "…Fail!". */
export const replySucceeded = (text: string) => !/fail|error|invalid|unknown|not |speed/i.test(text) && text.length > 0;
