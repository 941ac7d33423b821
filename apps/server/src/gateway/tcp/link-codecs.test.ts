import { afterEach, describe, expect, it, vi } from 'vitest';
import type { LinkMessage, LinkState } from './link-protocol.js';
import type { LinkProtocol } from './link-terminals.js';
import { jt808Codec } from './jt808-link.js';
import { Jt808FrameError, encodeJt808Frame } from './jt808-codec.js';
import { h02Codec } from './h02-link.js';
import { gps103Codec } from './gps103-link.js';
import { gl200Codec } from './gl200-link.js';

/**
 * The four text/binary codecs on real frames. Unless marked "constructed", a
 * frame is one published as a device capture in Traccar's protocol decoder tests
 * (github.com/traccar/traccar, src/test/java/org/traccar/protocol/*DecoderTest.java)
 * or in the vendor's protocol document named beside it; the answers expected
 * byte for byte were worked out by hand from the protocol documents.
 */
const hex = (s: string) => Buffer.from(s.replace(/\s/g, ''), 'hex');
const text = (s: string) => Buffer.from(s, 'latin1');

function stateOf(protocol: LinkProtocol, id?: string): LinkState {
  let serial = 0;
  return {
    terminal: id ? { car_device_id: 'dev', car_data_id: id, protocol, cmd_cut_text: '', cmd_restore_text: '' } : null,
    serial: () => (serial = (serial + 1) & 0xffff),
    memo: {},
  };
}
const NOW = new Date('2026-11-29T03:00:00Z');

/** The one message at the start of `buf`, which it must take whole. */
function only(codec: typeof jt808Codec, buf: Buffer, state: LinkState): LinkMessage {
  const r = codec.read(buf, state, NOW);
  expect(r?.size).toBe(buf.length);
  return r!.message;
}
const records = (m: LinkMessage) => (m.type === 'data' ? m.records : []);
const gpsOf = (m: LinkMessage) => records(m).filter((r) => r.type === 'gps');

afterEach(() => {
  vi.useRealTimers();
});

describe('JT/T 808', () => {
  // Traccar HuabaoProtocolDecoderTest: a 2013 terminal 013511221122 registering, authenticating, reporting.
  const registration = hex(
    '7E0100002D013511221122000500000000373031303748422D52303347424400000000000000000000003233363631303402CBD5424136383630387E',
  );
  const authentication = hex('7E0102000E013511221122000661757468656E7469636174696F6E3F7E');
  // Traccar HuabaoProtocolDecoderTest: a location of 013833501744 (its capture of 013511221122's location has a wrong check code).
  const location = hex(
    '7E0200002A013833501744001900000000000000C201597FA806CC01580080000000081508180721210104000002F502020000030200009F7E',
  );

  it('answers registration with 0x8100 and a code, authentication with 0x8001, in the terminal’s form', () => {
    const state = stateOf('jt808');
    const reg = only(jt808Codec, registration, state);
    expect(reg).toMatchObject({ type: 'login', id: '013511221122' });
    if (reg.type !== 'login') throw new Error();
    expect(reg.answer!(true)).toEqual(hex('7e8100000f0135112211220001000500303133353131323231313232b97e'));
    const auth = only(jt808Codec, authentication, state);
    if (auth.type !== 'login') throw new Error();
    expect(auth.answer!(true)).toEqual(hex('7e8001000501351122112200020006010200b77e'));
  });

  it('reads a location: BCD time in GMT+8, ACC as ignition, the oil-line bit, mileage; 0x8001 after', () => {
    const m = only(jt808Codec, location, stateOf('jt808'));
    expect(m).toMatchObject({ type: 'data', id: '013833501744' });
    expect(records(m)).toEqual([
      { type: 'gps', time: '2015-08-17T23:21:21.000Z', lat: 22.6426, lng: 114.032984, speed: 0, heading: 8 },
      { type: 'engine', time: '2015-08-17T23:21:21.000Z', running: 'off', engine_line: 'connected' },
      { type: 'sensor', time: '2015-08-17T23:21:21.000Z', readings: { odometer_m: 75700 } },
    ]);
    if (m.type !== 'data') throw new Error();
    expect(m.ack).toEqual(hex('7e8001000501383350174400010019020000977e'));
  });

  it('skips a frame whose XOR check code is wrong (unanswered: the terminal sends it again)', () => {
    // Traccar HuabaoProtocolDecoderTest: this capture's check code is D0, the XOR of its bytes F0.
    const bad = hex(
      '7E02000032013511221122000700000000000C000301578CC006CA3A5C00470000000014072317201501040000000030011631010BD07E',
    );
    expect(only(jt808Codec, bad, stateOf('jt808'))).toEqual({ type: 'skip', why: 'wrong check code' });
  });

  it('answers a heartbeat with 0x8001 naming its serial and id', () => {
    // Traccar HuabaoProtocolDecoderTest: heartbeat of 043048325465.
    const m = only(jt808Codec, hex('7e0002000004304832546500b7ca7e'), stateOf('jt808'));
    expect(m).toEqual({
      type: 'answer',
      id: '043048325465',
      ack: hex('7e80010005043048325465000100b70002004f7e'),
    });
  });

  it('reads every fix of a 0x0704 batch (a blind-area backfill)', () => {
    // Traccar HuabaoProtocolDecoderTest: four fixes of 030300000245 in one batch.
    const batch = hex(
      '7E070400F30303000002450064000401003A000000000000000301618AC606C31F20000000000029180514202847010400000000EB16000C00B28986061708003732585700060089FFFFFFFE003A000000000000000301618AE806C31EB800000000009F180514202917010400000000EB16000C00B28986061708003732585700060089FFFFFFFE003A000000000000000301618AE806C31EB800000000009F180514202947010400000000EB16000C00B28986061708003732585700060089FFFFFFFE003A000001000000080301618AE806C31EB800000000009F180514203006010400000000EB16000C00B28986061708003732585700060089FFFFFFFED77E',
    );
    const m = only(jt808Codec, batch, stateOf('jt808'));
    expect(gpsOf(m).map((r) => r.time)).toEqual([
      '2018-05-14T12:28:47.000Z',
      '2018-05-14T12:29:17.000Z',
      '2018-05-14T12:29:47.000Z',
      '2018-05-14T12:30:06.000Z',
    ]);
    // The last fix's alarm word 00000100: bit 8, the main power cut.
    expect(records(m).find((r) => r.type === 'sensor' && r.readings?.alarm)).toMatchObject({
      time: '2018-05-14T12:30:06.000Z',
      readings: { alarm: 'power_cut' },
    });
  });

  it('unescapes 7D 02 / 7D 01, skips a wrong check code, and refuses what is not a frame', () => {
    const h = { edition2019: false, version: 0, phone: hex('013511221122') };
    // Constructed: a body holding both flag bytes must travel escaped and come back whole.
    const framed = encodeJt808Frame(0x0001, h, 0x7e7d, hex('7e7d810500'));
    expect(framed.subarray(1, -1).includes(0x7e)).toBe(false);
    const reply = only(jt808Codec, framed, stateOf('jt808'));
    expect(reply).toMatchObject({ type: 'reply', key: 0x7e7d, success: true });
    const broken = Buffer.from(framed);
    broken.writeUInt8(broken[broken.length - 2]! ^ 0x55, broken.length - 2);
    expect(only(jt808Codec, broken, stateOf('jt808'))).toMatchObject({ type: 'skip' });
    expect(() => jt808Codec.read(text('GET / HTTP/1.1'), stateOf('jt808'), NOW)).toThrow(Jt808FrameError);
    expect(jt808Codec.read(framed.subarray(0, 8), stateOf('jt808'), NOW)).toBeNull();
  });

  it('speaks the 2019 edition to a 2019 terminal: 20-digit id, version byte, 10-byte phone in the reply', () => {
    // Constructed after JT/T 808-2019 §4.4.3 and §8.7: a registration of 00000356307042441013.
    const reg2019 = hex(
      '7e0100405401000003563070424410130021002c012f37303131310000000000004a543830382d32303139000000000000000000000000000000000000000041314232433344000000000000000000000000000000000000000000000001bea94131323334354a7e',
    );
    const m = only(jt808Codec, reg2019, stateOf('jt808'));
    expect(m).toMatchObject({ type: 'login', id: '00000356307042441013' });
    if (m.type !== 'login') throw new Error();
    expect(m.answer!(true)).toEqual(
      hex('7e81004017010000035630704244101300010021003030303030333536333037303432343431303133e67e'),
    );
  });

  it('cuts the engine with 0x8105 f0 as Traccar’s HuabaoProtocolEncoder does, keyed by its serial', () => {
    const state = stateOf('jt808', '080201000027');
    state.memo.header = { edition2019: false, version: 0, phone: hex('080201000027') };
    for (let i = 1; i < 0x1f; i++) state.serial();
    // Traccar HuabaoProtocolEncoderTest: engine stop for 080201000027 with serial 0x001f.
    expect(jt808Codec.command('f0', state, 9)).toEqual({ bytes: hex('7e81050001080201000027001ff0467e'), key: 0x1f });
  });
});

describe('H02', () => {
  it('reads a V1 position: degrees and minutes with hemispheres, knots, status; answers V4,V1 with the UTC time', () => {
    // Traccar H02ProtocolDecoderTest (expected 2015-12-22 16:45:49, 9.93978, -84.11178).
    const m = only(
      h02Codec,
      text('*HQ,4210051415,V1,164549,A,0956.3869,N,08406.7068,W,000.00,000,221215,FFFFFBFF,712,01,0,0,6#'),
      stateOf('h02'),
    );
    expect(m).toMatchObject({ type: 'data', id: '4210051415' });
    expect(gpsOf(m)).toEqual([
      { type: 'gps', time: '2015-12-22T16:45:49.000Z', lat: 9.939782, lng: -84.11178, speed: 0, heading: 0 },
    ]);
    // Status FFFFFBFF: bit 10 cleared (ACC off), the fuel line bit set (connected), no alarm.
    expect(records(m).find((r) => r.type === 'engine')).toMatchObject({ running: 'off', engine_line: 'connected' });
    if (m.type !== 'data') throw new Error();
    expect(m.ack).toEqual(text('*HQ,4210051415,V4,V1,20261129030000#'));
  });

  it('takes the odd degree forms and a battery field before the date; knots become km/h', () => {
    // Traccar H02ProtocolDecoderTest (expected -23.48349, -46.85975).
    const split = only(
      h02Codec,
      text('*HQ,1451316409,V1,030149,A,-23-29.0095,S,-46-51.5852,W,2.4,065,070315,FFFFFFFF#'),
      stateOf('h02'),
    );
    expect(gpsOf(split)[0]).toMatchObject({ lat: -23.483492, lng: -46.859753, speed: 4.4, heading: 65 });
    // Traccar H02ProtocolDecoderTest: a one-digit latitude degree and a battery level (4) before the date.
    const battery = only(
      h02Codec,
      text('*HQ,4210209006,V1,054048,A,2828.2297,N,07733.4332,E,000.5,047,4,080918,EEE7FBDF,4261193,0#'),
      stateOf('h02'),
    );
    expect(gpsOf(battery)[0]).toMatchObject({ time: '2018-09-08T05:40:48.000Z', lat: 28.470495, lng: 77.55722 });
  });

  it('reads the binary $ form (BCD, hemisphere nibble, knots) and skips the longer form’s tail', () => {
    // Traccar H02ProtocolDecoderTest (expected 2015-08-31 21:53:21, 4.69898, -74.06971): 45 bytes.
    const frame = hex('24410600082621532131081504419390060740418306000000fffffbfdff0015060000002c02dc0c000000001f');
    const state = stateOf('h02', '4106000826');
    const first = h02Codec.read(frame, state, NOW)!;
    expect(first.size).toBe(32);
    expect(first.message).toMatchObject({ type: 'data', id: '4106000826' });
    expect(gpsOf(first.message)[0]).toMatchObject({
      time: '2015-08-31T21:53:21.000Z',
      lat: 4.698983,
      lng: -74.069717,
    });
    expect(h02Codec.read(frame.subarray(32), state, NOW)).toEqual({ size: 13, message: { type: 'ignored' } });
  });

  it('takes the V4 confirmation of S20 as the answer, DONE succeeded and ERROR failed', () => {
    // Traccar H02ProtocolDecoderTest.
    const done = only(
      h02Codec,
      text('*TH,2020916012,V4,S20,DONE,130305,050316,A,2212.8745,N,11346.6574,E,14.28,028,220902,F7FFFBFF#'),
      stateOf('h02'),
    );
    expect(done).toEqual({ type: 'reply', id: '2020916012', key: null, success: true, text: 'S20,DONE' });
    const error = only(
      h02Codec,
      text('*TH,2020916012,V4,S20,ERROR,130305,050316,A,2212.8745,N,11346.6574,E,14.28,028,220902,FFFFFBFF#'),
      stateOf('h02'),
    );
    expect(error).toMatchObject({ type: 'reply', success: false });
  });

  it('sends S20 as Traccar’s H02ProtocolEncoder does, with the UTC time', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-29T01:02:03Z'));
    const state = stateOf('h02', '4210209006');
    expect(h02Codec.command('S20,1,1', state, 1).bytes).toEqual(text('*HQ,4210209006,S20,010203,1,1#'));
    expect(h02Codec.command('S20,1,0', state, 2).bytes).toEqual(text('*HQ,4210209006,S20,010203,1,0#'));
  });
});

describe('GPS103 / TK103', () => {
  it('answers the login with LOAD and the heartbeat with ON', () => {
    // Coban "GPRS data protocol": the log-on request and the heartbeat.
    const login = only(gps103Codec, text('##,imei:359586015829802,A;'), stateOf('gps103'));
    expect(login).toMatchObject({ type: 'login', id: '359586015829802' });
    if (login.type !== 'login') throw new Error();
    expect(login.answer!(true)).toEqual(text('LOAD'));
    expect(only(gps103Codec, text('359586015829802;'), stateOf('gps103'))).toEqual({
      type: 'answer',
      id: '359586015829802',
      ack: text('ON'),
    });
  });

  it('times a fix from the local date and the UTC seconds, across midnight', () => {
    // Traccar Gps103ProtocolDecoderTest (expected 2015-10-30 00:01:01, 54.72306, 25.21512; and 2015-10-26 23:59:57).
    const m = only(
      gps103Codec,
      text('imei:359710045559474,tracker,151030080103,,F,000101.000,A,5443.3834,N,02512.9071,E,0.00,0;'),
      stateOf('gps103'),
    );
    expect(gpsOf(m)).toEqual([
      { type: 'gps', time: '2015-10-30T00:01:01.000Z', lat: 54.723057, lng: 25.215118, speed: 0, heading: 0 },
    ]);
    const back = only(
      gps103Codec,
      text('imei:359710049092324,tracker,151027025958,,F,235957.000,A,2429.5156,N,04424.5828,E,0.01,27.91,,0,0,,,;'),
      stateOf('gps103'),
    );
    expect(gpsOf(back)[0]).toMatchObject({ time: '2015-10-26T23:59:57.000Z', lat: 24.491927, lng: 44.409713 });
  });

  it('stores acc off as ignition and help me as an SOS alarm', () => {
    // Traccar Gps103ProtocolDecoderTest; Coban "GPRS data protocol" (SOS alarm).
    const off = only(
      gps103Codec,
      text(
        'imei:865328023776874,acc off,150619152221,,F,072218.000,A,5439.8489,N,02518.5945,E,0.00,,,1,1,0.0,0.0,23.0,;',
      ),
      stateOf('gps103'),
    );
    expect(records(off).find((r) => r.type === 'engine')).toEqual({
      type: 'engine',
      time: '2015-06-19T07:22:18.000Z',
      running: 'off',
    });
    const sos = only(
      gps103Codec,
      text('imei:359586015829802,help me,0809231429,13554900601,F,062947.294,A,2234.4026,N,11354.3277,E,0.00,;'),
      stateOf('gps103'),
    );
    expect(records(sos).find((r) => r.type === 'sensor')).toMatchObject({
      time: '2008-09-23T06:29:47.000Z',
      readings: { alarm: 'sos' },
    });
  });

  it('sends J / K as Traccar’s Gps103ProtocolEncoder does; jt completes the command', () => {
    const state = stateOf('gps103', '359586015829802');
    expect(gps103Codec.command('J', state, 1).bytes).toEqual(text('**,imei:359586015829802,J'));
    // Constructed: the confirmation line the link takes (keyword jt / kt).
    expect(
      only(
        gps103Codec,
        text('imei:359586015829802,jt,0809231429,,F,062947.294,A,2234.4026,N,11354.3277,E,0.00,;'),
        state,
      ),
    ).toMatchObject({ type: 'reply', key: null, success: true });
  });
});

describe('Queclink @Track', () => {
  it('reads GTFRI with longitude before latitude', () => {
    // Traccar Gl200TextProtocolDecoderTest.
    const m = only(
      gl200Codec,
      text(
        '+RESP:GTFRI,DF0200,868487004353181,cv100,14051,10,1,0,0.0,0,264.1,114.015515,22.537178,20210608064328,0460,0001,25F8,061A7D02,,0.0,,,,100,21,,,,20210608144354,32DB$',
      ),
      stateOf('gl200'),
    );
    expect(m).toMatchObject({ type: 'data', id: '868487004353181' });
    expect(gpsOf(m)).toEqual([
      { type: 'gps', time: '2021-06-08T06:43:28.000Z', lat: 22.537178, lng: 114.015515, speed: 0, heading: 0 },
    ]);
  });

  it('reads every fix of a GTFRI that carries several', () => {
    // Constructed after the GL300 @Track protocol's GTFRI layout (<Number> = 2, two fix groups).
    const m = only(
      gl200Codec,
      text(
        '+RESP:GTFRI,300400,860599001073709,GL300,0,0,2,1,12.5,316,79.8,121.390085,31.164413,20130312044032,0460,0000,1877,0873,00,1,30.0,90,80.1,121.391200,31.164500,20130312044102,0460,0000,1877,0873,00,98,20130312124104,0A12$',
      ),
      stateOf('gl200'),
    );
    expect(gpsOf(m)).toEqual([
      { type: 'gps', time: '2013-03-12T04:40:32.000Z', lat: 31.164413, lng: 121.390085, speed: 12.5, heading: 316 },
      { type: 'gps', time: '2013-03-12T04:41:02.000Z', lat: 31.1645, lng: 121.3912, speed: 30, heading: 90 },
    ]);
  });

  it('stores +BUFF reports at their own times, and GTIGN / GTIGF as ignition', () => {
    // Traccar Gl200TextProtocolDecoderTest.
    const buff = only(
      gl200Codec,
      text(
        '+BUFF:GTFRI,8020040200,866314060249032,,12194,10,1,3,0.0,0,20.1,-71.596533,-33.524718,20230926200338,0730,0001,772A,052B253E,02,0,0.0,,,,,0,420000,,,,20230926200340,1549$',
      ),
      stateOf('gl200'),
    );
    expect(gpsOf(buff)[0]).toMatchObject({ time: '2023-09-26T20:03:38.000Z', lat: -33.524718, lng: -71.596533 });
    const ign = only(
      gl200Codec,
      text(
        '+RESP:GTIGN,BD0221,861778061565387,CV200,,0,140944,0,0.0,358,17.6,-2.223488,51.882342,20251222020123,0234,0015,6093,000F830E,,,5810.9,20251222070035,20251222070035,C60E$',
      ),
      stateOf('gl200'),
    );
    expect(records(ign).find((r) => r.type === 'engine')).toEqual({
      type: 'engine',
      time: '2025-12-22T02:01:23.000Z',
      running: 'on',
    });
    const igf = only(
      gl200Codec,
      text(
        '+RESP:GTIGF,8020050502,867488060278727,,509,1,0.0,184,32.6,14.003446,42.654554,20240219124629,0222,0001,0FAD,0497F715,00,,0.0,20240219124630,FD2F$',
      ),
      stateOf('gl200'),
    );
    expect(records(igf).find((r) => r.type === 'engine')).toMatchObject({ running: 'off' });
  });

  it('answers +ACK:GTHBD with the SACK; +ACK:GTOUT answers the engine command sent as Traccar’s encoder does', () => {
    // Queclink GV300 @Track protocol, the heartbeat example (§3.4).
    const hbd = only(gl200Codec, text('+ACK:GTHBD,060100,135790246811220,,20100214093254,11F0$'), stateOf('gl200'));
    expect(hbd).toEqual({ type: 'answer', id: '135790246811220', ack: text('+SACK:GTHBD,060100,11F0$') });
    const state = stateOf('gl200', '135790246811220');
    expect(gl200Codec.command('AT+GTOUT=,1,,,0,0,0,0,0,0,0,,,,,,,FFFF$', state, 1).bytes).toEqual(
      text('AT+GTOUT=,1,,,0,0,0,0,0,0,0,,,,,,,FFFF$'),
    );
    // Constructed after the same document's +ACK layout.
    expect(only(gl200Codec, text('+ACK:GTOUT,060100,135790246811220,,FFFF,20100214093300,11F1$'), state)).toMatchObject(
      { type: 'reply', key: null, success: true },
    );
  });
});
