import { describe, expect, it } from 'vitest';
import { crc16X25 } from './crc.js';
import {
  GT06,
  Gt06FrameError,
  encodeGt06Ack,
  encodeGt06Command,
  encodeGt06Frame,
  readCommandReply,
  readGt06Frame,
  type Gt06Frame,
} from './gt06-codec.js';
import { decodeGt06, replySucceeded } from './gt06-records.js';

const hex = (s: string) => Buffer.from(s.replace(/\s+/g, ''), 'hex');
const frameOf = (b: Buffer): Gt06Frame => {
  const read = readGt06Frame(b);
  if (!read?.frame) throw new Error('no frame');
  return read.frame;
};
const now = new Date('2026-11-25T03:00:00.000Z');

describe('GT06 framing', () => {
  // Concox's examples: a login with terminal id 0123456789012345, serial 1, and the server's answer.
  it('reads the vendor login, its BCD IMEI, and answers as the vendor example does', () => {
    const login = hex('78780D01 0123456789012345 0001 8CDD 0D0A');
    const read = readGt06Frame(login)!;
    expect(read.size).toBe(login.length);
    expect(read.frame).toMatchObject({ protocol: GT06.login, serial: 1 });
    expect(decodeGt06(read.frame!, now)).toEqual({ type: 'login', imei: '123456789012345' });
    expect(encodeGt06Ack(GT06.login, 1)).toEqual(hex('78780501 0001 D9DC 0D0A'));
  });
  it('waits for more, skips a wrong CRC, refuses garbage, no stop bits and oversized lengths', () => {
    const login = hex('78780D01 0123456789012345 0001 8CDD 0D0A');
    expect(readGt06Frame(login.subarray(0, 1))).toBeNull();
    expect(readGt06Frame(login.subarray(0, 12))).toBeNull();
    const bad = Buffer.from(login);
    bad[13] = bad[13]! ^ 1;
    expect(readGt06Frame(bad)).toEqual({ size: login.length, frame: null });
    expect(() => readGt06Frame(hex('474554'))).toThrow(Gt06FrameError);
    expect(() => readGt06Frame(hex('41'))).toThrow(Gt06FrameError);
    const noStop = Buffer.from(login);
    noStop[noStop.length - 1] = 0;
    expect(() => readGt06Frame(noStop)).toThrow(Gt06FrameError);
    expect(() => readGt06Frame(hex('7979FFFF'))).toThrow(Gt06FrameError);
    expect(() => readGt06Frame(hex('787802'))).toThrow(Gt06FrameError);
  });
  it('frames long content with 7979 and a 2-byte length', () => {
    const content = Buffer.alloc(300, 0x41);
    const out = encodeGt06Frame(0x94, content, 7);
    expect(out.subarray(0, 5)).toEqual(hex('7979 0131 94'));
    expect(readGt06Frame(out)).toEqual({ size: out.length, frame: { protocol: 0x94, content, serial: 7 } });
  });
});

describe('GT06 location, heartbeat and alarm', () => {
  it('decodes the vendor 0x12 example: 2011-08-29 17:46:16, 15 satellites, north-east, course 143', () => {
    const f = frameOf(hex('78781F12 0B081D112E10 CF 027AC7EB 0C465849 00 148F 01CC 00 287D 001FB8 0003 8081 0D0A'));
    expect(decodeGt06(f, now)).toEqual({
      type: 'data',
      time: new Date('2011-08-29T17:46:16.000Z'),
      records: [
        {
          type: 'gps',
          time: '2011-08-29T17:46:16.000Z',
          lat: 23.111668,
          lng: 114.409285,
          speed: 0,
          heading: 143,
          satellites: 15,
        },
      ],
    });
  });
  it('reads 0x22 with south, west, speed and ACC on; no fix means no position', () => {
    // Flags: positioned, west, south (bit 10 clear), course 270.
    const lat = Math.round(35.6815 * 1_800_000);
    const lng = Math.round(139.7671 * 1_800_000);
    const content = Buffer.alloc(30);
    hex('1A0B190A1E05').copy(content, 0);
    content[6] = 0xc8;
    content.writeUInt32BE(lat, 7);
    content.writeUInt32BE(lng, 11);
    content[15] = 42;
    content.writeUInt16BE(0x1000 | 0x0800 | 270, 16);
    content[26] = 1;
    const f = frameOf(encodeGt06Frame(GT06.gpsLbs2, content, 9));
    expect(decodeGt06(f, now)).toEqual({
      type: 'data',
      time: new Date('2026-11-25T10:30:05.000Z'),
      records: [
        {
          type: 'gps',
          time: '2026-11-25T10:30:05.000Z',
          lat: -35.6815,
          lng: -139.7671,
          speed: 42,
          heading: 270,
          satellites: 8,
        },
        { type: 'engine', time: '2026-11-25T10:30:05.000Z', running: 'on' },
      ],
    });
    content.writeUInt16BE(0x0400, 16);
    content[26] = 0;
    expect(decodeGt06(frameOf(encodeGt06Frame(GT06.gpsLbs2, content, 9)), now)).toMatchObject({
      records: [{ type: 'engine', running: 'off' }],
    });
  });
  it('reads the heartbeat status byte: ACC, relay cut, charging, armed, voltage level and GSM signal', () => {
    const f = frameOf(encodeGt06Frame(GT06.heartbeat, hex('87 05 04 0002'), 3));
    const time = now.toISOString();
    expect(decodeGt06(f, now)).toEqual({
      type: 'data',
      time: now,
      records: [
        { type: 'engine', time, running: 'on', engine_line: 'disconnected' },
        { type: 'sensor', time, readings: { charging: true, armed: true, voltage_level: 5, gsm_signal: 4 } },
      ],
    });
    const off = frameOf(encodeGt06Frame(GT06.heartbeat, hex('40 03 02 0002'), 4));
    expect(decodeGt06(off, now)).toMatchObject({
      records: [{ running: 'off', engine_line: 'connected' }, { readings: { voltage_level: 3 } }],
    });
  });
  it('reads an alarm (0x16): position, LBS, status and the alarm kind', () => {
    const content = Buffer.concat([
      hex('1A0B190A1E05 C9 027AC7EB 0C465849 10 148F'),
      hex('09 01B8 0A 1234 00ABCD'),
      hex('02 06 03 0301'),
    ]);
    const msg = decodeGt06(frameOf(encodeGt06Frame(GT06.alarm, content, 5)), now);
    expect(msg).toMatchObject({
      type: 'data',
      records: [
        { type: 'gps', speed: 16, satellites: 9 },
        { type: 'engine', running: 'on', engine_line: 'connected' },
        {
          type: 'sensor',
          readings: { voltage_level: 6, gsm_signal: 3, alarm: 'vibration', charging: false, armed: false },
        },
      ],
    });
  });
  it('refuses a location with an impossible date', () => {
    const f = frameOf(
      encodeGt06Frame(GT06.gpsLbs, hex('1A0D190A1E05 C9 027AC7EB 0C465849 10 148F 01CC 00 287D 001FB8'), 1),
    );
    expect(() => decodeGt06(f, now)).toThrow(Gt06FrameError);
  });
});

describe('GT06 commands', () => {
  it('encodes 0x80 with the server flag, the text and English', () => {
    const out = encodeGt06Command('Relay,1#', 118, 2);
    expect(out).toEqual(
      Buffer.concat([
        hex('7878 14 80 0C 00000076'),
        Buffer.from('Relay,1#'),
        hex('0002 0002'),
        hex(
          crc16X25(out, 2, out.length - 4)
            .toString(16)
            .padStart(4, '0'),
        ),
        hex('0D0A'),
      ]),
    );
    expect(readGt06Frame(out)!.frame!.protocol).toBe(GT06.command);
  });
  it('reads a 0x15 reply with its server flag, and a clone reply with a zero length byte', () => {
    const text = 'Cut off the fuel supply: Success!';
    const content = Buffer.concat([Buffer.from([4 + text.length]), hex('00000076'), Buffer.from(text), hex('0002')]);
    expect(readCommandReply(GT06.stringReply, content)).toEqual({ serverFlag: 118, text });
    expect(decodeGt06(frameOf(encodeGt06Frame(GT06.stringReply, content, 8)), now)).toEqual({
      type: 'reply',
      serverFlag: 118,
      text,
    });
    expect(readCommandReply(GT06.stringReply, Buffer.concat([hex('00'), Buffer.from('Relay OK')]))).toEqual({
      serverFlag: null,
      text: 'Relay OK',
    });
    expect(
      readCommandReply(GT06.reply4g, Buffer.concat([hex('00000077 01'), Buffer.from('Restore fuel supply: Success!')])),
    ).toEqual({
      serverFlag: 119,
      text: 'Restore fuel supply: Success!',
    });
  });
  it('tells success from failure by the text', () => {
    expect(replySucceeded('Cut off the fuel supply: Success!')).toBe(true);
    expect(replySucceeded('Relay OK')).toBe(true);
    expect(replySucceeded('Cut off the fuel supply: Fail!')).toBe(false);
    expect(replySucceeded('Speed Limit, Speed 35km/h')).toBe(false);
    expect(replySucceeded('')).toBe(false);
  });
});
