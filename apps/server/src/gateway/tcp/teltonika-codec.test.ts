import { describe, expect, it } from 'vitest';
import { crc16Ibm, crc16X25 } from './crc.js';
import {
  CODEC_8E,
  FrameError,
  encodeAck,
  encodeCommand,
  encodeLoginReply,
  readFrame,
  readLogin,
  wrap,
} from './teltonika-codec.js';
import { avlToRecords } from './teltonika-records.js';

const hex = (s: string) => Buffer.from(s.replace(/\s+/g, ''), 'hex');

describe('checksums', () => {
  it('CRC-16/IBM and CRC-16/X-25 give the catalogued check values of "123456789"', () => {
    const check = Buffer.from('123456789');
    expect(crc16Ibm(check)).toBe(0xbb3d);
    expect(crc16X25(check)).toBe(0x906e);
  });
});

describe('Teltonika login', () => {
  it('reads the 2-byte length and the IMEI, and waits for the rest', () => {
    const frame = hex('000F 333536333037303432343431303133');
    expect(readLogin(frame)).toEqual({ imei: '356307042441013', size: 17 });
    expect(readLogin(frame.subarray(0, 10))).toBeNull();
    expect(encodeLoginReply(true)).toEqual(hex('01'));
    expect(encodeLoginReply(false)).toEqual(hex('00'));
  });
  it('refuses what is not an IMEI', () => {
    expect(() => readLogin(hex('0000'))).toThrow(FrameError);
    expect(() => readLogin(hex('0300 41'))).toThrow(FrameError);
    expect(() => readLogin(hex('0003 414243'))).toThrow(FrameError);
  });
});

describe('Codec 8', () => {
  // The vendor's example: one record, no fix, IO 21=3, 1=1, 66=24079 mV, 241=24602, 78=0.
  const example = hex(
    '00000000 00000036 08 01 0000016B40D8EA30 01 00000000 00000000 0000 0000 00 0000 01 05 02 1503 0101 01 425E0F 01 F10000601A 01 4E0000000000000000 01 0000C7CF',
  );
  it('decodes the vendor example and checks its CRC', () => {
    const read = readFrame(example)!;
    expect(read.size).toBe(example.length);
    expect(read.frame?.kind).toBe('avl');
    if (read.frame?.kind !== 'avl') return;
    expect(read.frame.codec).toBe(8);
    const [r] = read.frame.records;
    expect(r!.time.toISOString()).toBe('2019-06-10T10:04:46.000Z');
    expect(r!.priority).toBe(1);
    expect(r!.eventId).toBe(1);
    expect([...r!.io]).toEqual([
      [21, 3],
      [1, 1],
      [66, 24079],
      [241, 24602],
      [78, 0],
    ]);
    // No fix: no position; the external voltage is the battery; the rest are readings.
    expect(avlToRecords(r!)).toEqual([
      { type: 'battery', time: '2019-06-10T10:04:46.000Z', voltage: 24.079 },
      { type: 'sensor', time: '2019-06-10T10:04:46.000Z', readings: { gsm_signal: 3, din1: 1, event_io: 1 } },
    ]);
  });
  it('waits for a frame that is not complete, and skips one with a wrong CRC', () => {
    expect(readFrame(example.subarray(0, 20))).toBeNull();
    expect(readFrame(example.subarray(0, 5))).toBeNull();
    const bad = Buffer.from(example);
    bad[bad.length - 1] = bad[bad.length - 1]! ^ 0xff;
    expect(readFrame(bad)).toEqual({ size: example.length, frame: null });
  });
  it('refuses garbage, an oversized length and a body that does not add up', () => {
    expect(() => readFrame(hex('474554202f20485454502f312e310d0a'))).toThrow(FrameError);
    expect(() => readFrame(hex('00000000 7fffffff'))).toThrow(FrameError);
    // Claims two records, holds one: the CRC is right, the content is not.
    expect(() =>
      readFrame(wrap(hex('08 02 0000016B40D8EA30 01 00000000 00000000 0000 0000 00 0000 00 00 00 00 00 00 02'))),
    ).toThrow(FrameError);
    // A record time no Date holds (past ±8.64e15 ms): a frame error, never a RangeError when it is stored.
    for (const ms of ['001EB208C2DC0001', 'FFFFFFFFFFFFFFFF'])
      expect(() =>
        readFrame(wrap(hex(`08 01 ${ms} 01 00000000 00000000 0000 0000 00 0000 00 00 00 00 00 00 01`))),
      ).toThrow(FrameError);
  });
  it('maps position, ignition, DOUT1, voltage, movement, GSM signal and OBD values', () => {
    const data = hex(
      [
        '08 01',
        '0000019A8F3C2E00', // 2025-11-…
        '00',
        '534EC560', // lng 139.7671264
        '154490E4', // lat 35.6815076
        '0028 005A 09 0032', // altitude 40 m, angle 90, 9 satellites, 50 km/h
        'EF', // event: ignition
        '0A',
        '06 EF01 F001 1504 B301 20A6 30 40', // ignition 1, movement 1, GSM 4, DOUT1 1, coolant −90, fuel 64 %
        '03 4236B0 2405DC 435014', // external 14000 mV, rpm 1500, battery 20500 mV
        '01 48000000E6', // dallas 23.0 °C
        '00',
        '01',
      ].join(''),
    );
    const read = readFrame(wrap(data))!;
    if (read.frame?.kind !== 'avl') throw new Error('not AVL');
    const [r] = read.frame.records;
    const time = r!.time.toISOString();
    expect(r).toMatchObject({
      lng: 139.7671264,
      lat: 35.6815076,
      altitude: 40,
      angle: 90,
      satellites: 9,
      speed: 50,
      eventId: 239,
    });
    expect(avlToRecords(r!)).toEqual([
      { type: 'gps', time, lat: 35.6815076, lng: 139.7671264, speed: 50, heading: 90, satellites: 9 },
      { type: 'engine', time, running: 'on', engine_line: 'disconnected' },
      { type: 'battery', time, voltage: 14 },
      {
        type: 'sensor',
        time,
        readings: { movement: 1, gsm_signal: 4, internal_battery_v: 20.5, temperature_c: 23, event_io: 239 },
      },
      { type: 'obd2', time, pids: { coolant_temp: -90, rpm: 1500, fuel_level: 64 } },
    ]);
  });
  it('reads DOUT1 off as the start permitted and ignition off as stopped', () => {
    const data = hex('08 01 0000019A8F3C2E00 00 00000000 00000000 0000 0000 00 0000 00 02 02 EF00 B300 00 00 00 01');
    const read = readFrame(wrap(data))!;
    if (read.frame?.kind !== 'avl') throw new Error('not AVL');
    expect(avlToRecords(read.frame.records[0]!)).toEqual([
      { type: 'engine', time: read.frame.records[0]!.time.toISOString(), running: 'off', engine_line: 'connected' },
    ]);
  });
});

describe('Codec 8 Extended', () => {
  it('reads 2-byte IO ids and counts and the variable-length group', () => {
    const data = hex(
      [
        '8E 02',
        // record 1: south-west position, ignition 0 (2-byte ids), a 3-byte variable element 0x0100
        '0000019A8F3C2E00 01 FB42ED20 F3A96E40 FFF6 0167 05 0000',
        '00EF 0004',
        '0001 00EF00',
        '0001 00420FA0',
        '0000',
        '0000',
        '0001 0100 0003 ABCDEF',
        // record 2: no IO at all
        '0000019A8F3C3200 00 00000000 00000000 0000 0000 00 0000 0000 0000 0000 0000 0000 0000 0000',
        '02',
      ].join(''),
    );
    const read = readFrame(wrap(data))!;
    if (read.frame?.kind !== 'avl') throw new Error('not AVL');
    expect(read.frame.codec).toBe(CODEC_8E);
    const [a, b] = read.frame.records;
    expect(a).toMatchObject({ lng: -7.95, lat: -20.7, altitude: -10, angle: 359, satellites: 5, eventId: 239 });
    expect(a!.io.get(239)).toBe(0);
    expect(a!.io.get(66)).toBe(4000);
    expect(a!.io.get(256)).toEqual(hex('ABCDEF'));
    expect(avlToRecords(a!).map((r) => r.type)).toEqual(['gps', 'engine', 'battery', 'sensor']);
    expect(b!.io.size).toBe(0);
    expect(avlToRecords(b!)).toEqual([]);
  });
});

describe('acknowledgement and Codec 12', () => {
  it('acknowledges with the record count in 4 bytes', () => {
    expect(encodeAck(1)).toEqual(hex('00000001'));
    expect(encodeAck(300)).toEqual(hex('0000012C'));
  });
  it('encodes a command as the vendor example (getinfo) and setdigout', () => {
    expect(encodeCommand('getinfo')).toEqual(hex('00000000 0000000F 0C 01 05 00000007 676574696E666F 01 00004312'));
    const out = encodeCommand('setdigout 1');
    expect(out.subarray(8, 18)).toEqual(hex('0C 01 05 0000000B 736574'));
    expect(out.readUInt32BE(out.length - 4)).toBe(crc16Ibm(out, 8, out.length - 4));
  });
  it('reads a type-06 response', () => {
    const text = 'DOUT1:1 Timeout:INFINITY DOUT2:0 Timeout:INFINITY';
    const body = Buffer.from(text);
    const data = Buffer.concat([hex('0C 01 06'), hex(body.length.toString(16).padStart(8, '0')), body, hex('01')]);
    expect(readFrame(wrap(data))).toEqual({ size: data.length + 12, frame: { kind: 'response', text } });
  });
  it('refuses a command (type 05) coming from the device', () => {
    expect(() => readFrame(encodeCommand('getinfo'))).toThrow(FrameError);
  });
});
