import { defaultCommandTexts, type LinkProtocol } from '@fleet/contract';
import { GT06, readGt06Frame } from '../gateway/tcp/gt06-codec.js';
import {
  encodeGt06Heartbeat,
  encodeGt06Location,
  encodeGt06Login,
  encodeGt06Reply,
} from '../gateway/tcp/gt06-device.js';
import { JT808, readJt808Frame } from '../gateway/tcp/jt808-codec.js';
import {
  commandTextOf,
  encodeAvlFrame,
  encodeLogin,
  encodeResponse,
  type DeviceAvl,
} from '../gateway/tcp/teltonika-device.js';
import {
  gl200Fri,
  gl200Heartbeat,
  gl200Ignition,
  gl200OutAck,
  gps103Heartbeat,
  gps103Login,
  gps103Position,
  h02Confirm,
  h02V1,
  jt808Authenticate,
  jt808Location,
  jt808Register,
  jt808TerminalReply,
} from '../gateway/tcp/text-devices.js';

/**
 * The device's side of each TCP protocol, as the fleet simulator speaks it
 * (link-transport.ts owns the connection). A speaker turns the simulated
 * terminal's state into the protocol's frames, tells what the server sent
 * (an answer, a command, or something to skip) and confirms commands the way
 * the real hardware does.
 */

/** The simulated terminal at one moment: where it is and what its lines read. */
export interface DevicePoint {
  time: Date;
  lat: number;
  lng: number;
  /** km/h */
  speed: number;
  course: number;
  satellites: number;
  /** Ignition. */
  acc: boolean;
  relayCut: boolean;
  /** Volts, when the record was a battery reading. */
  voltage?: number;
  /** A position record, or a change of engine or battery state at the last position. */
  kind: 'gps' | 'state';
}

/** What the head of the receive buffer holds. */
export type Heard =
  | { size: number; kind: 'answer' }
  | { size: number; kind: 'skip' }
  /** `text` in the form of the protocol's command texts (defaultCommandTexts); `ref` what the confirmation names. */
  | { size: number; kind: 'command'; text: string; ref: number };

/** The connection as a speaker uses it while logging in. */
export interface LinkIo {
  write(bytes: Buffer): void;
  /** The next answer's bytes. */
  answer(): Promise<Buffer>;
}

export interface Speaker {
  login(io: LinkIo): Promise<void>;
  /** Null while the head is incomplete. */
  hear(buf: Buffer): Heard | null;
  /** A batch's points as frames; each frame of `answered` gets one answer before the next goes. */
  report(points: readonly DevicePoint[]): { frames: Buffer[]; answered: boolean };
  /** Sent after unanswered frames so that a batch ends on an answer: a heartbeat. */
  barrier?(): Buffer;
  /** The device's confirmation of a command; null where the hardware says nothing on failure. */
  confirm(ref: number, ok: boolean, at: DevicePoint): Buffer | null;
}

/** The engine permission a command text stands for (1: cut, 0: restore), null when it is another command. */
export function commandCmd(protocol: LinkProtocol, text: string): 0 | 1 | null {
  const texts = defaultCommandTexts[protocol];
  if (texts && text === texts.cut) return 1;
  if (texts && text === texts.restore) return 0;
  if (/^(setdigout|relay,?)\s*1\b/i.test(text)) return 1;
  if (/^(setdigout|relay,?)\s*0\b/i.test(text)) return 0;
  return null;
}

/** Finds `end` from the start of `buf`: the line's size, or null while it is incomplete. */
const lineSize = (buf: Buffer, end: number) => {
  const i = buf.indexOf(end);
  return i < 0 ? null : i + 1;
};

const serials = () => {
  let n = 0;
  return () => (n = (n + 1) & 0xffff);
};

function teltonika(id: string): Speaker {
  let loggedIn = false;
  return {
    async login(io) {
      io.write(encodeLogin(id));
      const reply = await io.answer();
      if (reply[0] !== 1) throw new Error('login refused');
      loggedIn = true;
    },
    hear(buf) {
      if (!loggedIn) return buf.length >= 1 ? { size: 1, kind: 'answer' } : null;
      if (buf.length < 4) return null;
      if (buf.readUInt32BE(0) !== 0) return { size: 4, kind: 'answer' };
      if (buf.length < 8) return null;
      const size = buf.readUInt32BE(4) + 12;
      if (buf.length < size) return null;
      const text = commandTextOf(buf.subarray(0, size));
      return text === null ? { size, kind: 'skip' } : { size, kind: 'command', text, ref: 0 };
    },
    report(points) {
      const avl: DeviceAvl[] = points.map((p) => {
        const io: Record<number, number> = {
          239: p.acc ? 1 : 0,
          240: p.speed > 0 ? 1 : 0,
          179: p.relayCut ? 1 : 0,
          21: 4,
        };
        if (p.voltage !== undefined) io[66] = Math.round(p.voltage * 1000);
        return { time: p.time, lat: p.lat, lng: p.lng, speed: p.speed, angle: p.course, satellites: p.satellites, io };
      });
      // A Teltonika frame holds at most 255 records; keep them small as a device would.
      const frames: Buffer[] = [];
      for (let i = 0; i < avl.length; i += 50) frames.push(encodeAvlFrame(avl.slice(i, i + 50)));
      return { frames, answered: true };
    },
    confirm: (_ref, ok) => encodeResponse(ok ? 'DOUT1 set' : 'ERROR'),
  };
}

function gt06(id: string): Speaker {
  const serial = serials();
  return {
    async login(io) {
      io.write(encodeGt06Login(id, serial()));
      await io.answer();
    },
    hear(buf) {
      if (buf.length < 5) return null;
      if (buf[3] !== GT06.command) return buf.length >= 10 ? { size: 10, kind: 'answer' } : null;
      const read = readGt06Frame(buf);
      if (!read?.frame) return null;
      const c = read.frame.content;
      return { size: read.size, kind: 'command', text: c.toString('latin1', 5, 1 + c[0]!), ref: c.readUInt32BE(1) };
    },
    report(points) {
      const frames = points.map((p) =>
        p.kind === 'gps'
          ? encodeGt06Location(p, serial())
          : encodeGt06Heartbeat({ acc: p.acc, relayCut: p.relayCut, voltageLevel: 5, gsmSignal: 4 }, serial()),
      );
      return { frames, answered: true };
    },
    confirm: (ref, ok) => encodeGt06Reply(ref, ok ? 'Relay control: Success!' : 'Relay control: Fail!', serial()),
  };
}

function jt808(id: string): Speaker {
  const serial = serials();
  return {
    async login(io) {
      io.write(jt808Register(id, serial()));
      const reply = readJt808Frame(await io.answer())?.frame;
      // 0x8100: the answered serial (2), the result (1: 0 is registered), the authentication code.
      if (!reply || reply.body[2] !== 0) throw new Error('registration refused');
      io.write(jt808Authenticate(id, reply.body.toString('latin1', 3), serial()));
      await io.answer();
    },
    hear(buf) {
      const read = readJt808Frame(buf);
      if (!read) return null;
      const f = read.frame;
      if (!f) return { size: read.size, kind: 'skip' };
      if (f.id === JT808.terminalControl)
        return { size: read.size, kind: 'command', text: f.body.toString('hex'), ref: f.serial };
      return { size: read.size, kind: 'answer' };
    },
    report: (points) => ({ frames: points.map((p) => jt808Location(id, p, serial())), answered: true }),
    confirm: (ref, ok) => jt808TerminalReply(id, serial(), { serial: ref, id: JT808.terminalControl }, ok ? 0 : 1),
  };
}

function h02(id: string): Speaker {
  const command = new RegExp(`^\\*HQ,${id},(S20),\\d{6},(.*)#$`);
  return {
    login: async () => undefined,
    hear(buf) {
      const size = lineSize(buf, 0x23 /* # */);
      if (size === null) return null;
      const line = buf.toString('latin1', 0, size);
      const m = command.exec(line);
      if (m) return { size, kind: 'command', text: `${m[1]},${m[2]}`, ref: 0 };
      return { size, kind: line.includes(',V4,V1,') ? 'answer' : 'skip' };
    },
    report: (points) => ({ frames: points.map((p) => h02V1(id, p)), answered: true }),
    confirm: (_ref, ok, at) => h02Confirm(id, 'S20', ok, at),
  };
}

function gps103(id: string): Speaker {
  const command = `**,imei:${id},`;
  return {
    async login(io) {
      io.write(gps103Login(id));
      await io.answer();
    },
    hear(buf) {
      const head = buf.toString('latin1', 0, Math.min(buf.length, command.length + 1));
      if (head.startsWith('LOAD')) return { size: 4, kind: 'answer' };
      if (head.startsWith('ON')) return { size: 2, kind: 'answer' };
      if (head.length === command.length + 1 && head.startsWith(command))
        return { size: head.length, kind: 'command', text: head.slice(-1), ref: head.endsWith('J') ? 1 : 0 };
      if (command.startsWith(head) || 'LOAD'.startsWith(head)) return null;
      return { size: 1, kind: 'skip' };
    },
    // Engine and battery changes have no line of their own: the next position carries on.
    report: (points) => ({
      frames: points.filter((p) => p.kind === 'gps').map((p) => gps103Position(id, p)),
      answered: false,
    }),
    barrier: () => gps103Heartbeat(id),
    // `jt` after a stop (J), `kt` after a resume (K).
    confirm: (ref, ok, at) => (ok ? gps103Position(id, at, ref === 1 ? 'jt' : 'kt') : null),
  };
}

function gl200(id: string): Speaker {
  let count = 0;
  let acc: boolean | null = null;
  return {
    login: async () => undefined,
    hear(buf) {
      const size = lineSize(buf, 0x24 /* $ */);
      if (size === null) return null;
      const line = buf.toString('latin1', 0, size);
      if (line.startsWith('AT+GTOUT=')) return { size, kind: 'command', text: line, ref: 0 };
      return { size, kind: line.startsWith('+SACK:') ? 'answer' : 'skip' };
    },
    report(points) {
      const frames: Buffer[] = [];
      let fixes: DevicePoint[] = [];
      const flush = () => {
        // One GTFRI carries up to 15 fixes, as the device's report settings allow.
        for (let i = 0; i < fixes.length; i += 15) frames.push(gl200Fri(id, fixes.slice(i, i + 15), ++count));
        fixes = [];
      };
      for (const p of points) {
        // GTIGN / GTIGF when the ignition changes, and for the first point of a connection.
        if (p.acc !== acc) {
          flush();
          frames.push(gl200Ignition(id, p.acc, p, ++count));
        }
        acc = p.acc;
        if (p.kind === 'gps') fixes.push(p);
      }
      flush();
      return { frames, answered: false };
    },
    barrier: () => gl200Heartbeat(id, ++count),
    confirm: (_ref, ok) => (ok ? gl200OutAck(id, ++count) : null),
  };
}

export const speakers: Record<LinkProtocol, (id: string) => Speaker> = {
  teltonika,
  gt06,
  jt808,
  h02,
  gps103,
  gl200,
};
