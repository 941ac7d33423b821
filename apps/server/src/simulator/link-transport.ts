import { connect, type Socket } from 'node:net';
import type { DeviceBatchResponse, DeviceCommand, DeviceRecordInput } from '@fleet/contract';
import { readGt06Frame, GT06 } from '../gateway/tcp/gt06-codec.js';
import {
  encodeGt06Heartbeat,
  encodeGt06Location,
  encodeGt06Login,
  encodeGt06Reply,
} from '../gateway/tcp/gt06-device.js';
import {
  commandTextOf,
  encodeAvlFrame,
  encodeLogin,
  encodeResponse,
  type DeviceAvl,
} from '../gateway/tcp/teltonika-device.js';
import type { BatchBody, TerminalCredentials, Transport, TransportReply } from './transport.js';

/**
 * Teltonika and GT06 terminals of the simulator, over the real TCP listeners.
 * The simulated terminal still thinks in batches of our records; this
 * transport keeps one connection per terminal, turns a batch into the
 * protocol's frames (sent one by one, each waiting for its acknowledgement),
 * and turns the immobiliser commands the server writes into the `commands`
 * of the reply, so the terminal executes them and its `command_result`
 * records go back as the protocol's replies. Other terminals go to `fallback`.
 */
export interface LinkPorts {
  host: string;
  teltonikaPort: number | null;
  gt06Port: number | null;
}

const TIMEOUT_MS = 10_000;

/** Leaves out the terminals whose listener is off. */
export function withOpenLinks<T extends TerminalCredentials>(terminals: readonly T[], ports: LinkPorts): T[] {
  return terminals.filter(
    (t) =>
      (t.protocol !== 'teltonika' || ports.teltonikaPort !== null) &&
      (t.protocol !== 'gt06' || ports.gt06Port !== null),
  );
}

export function linkTransport(fallback: Transport, ports: LinkPorts): Transport {
  const links = new Map<string, DeviceLink>();
  return async (creds, batch) => {
    const port =
      creds.protocol === 'teltonika' ? ports.teltonikaPort : creds.protocol === 'gt06' ? ports.gt06Port : undefined;
    if (port === undefined) return fallback(creds, batch);
    if (port === null) throw new Error(`${creds.protocol} listener is off`);
    let link = links.get(creds.car_data_id);
    if (!link || link.closed) {
      link = await DeviceLink.open(creds, ports.host, port);
      links.set(creds.car_data_id, link);
    }
    try {
      return await link.send(batch);
    } catch (err) {
      link.close();
      throw err;
    }
  };
}

/** A command text as the engine permission it stands for. */
const cmdOf = (text: string): number | null =>
  /^(setdigout|relay,?)\s*1\b/i.test(text) ? 1 : /^(setdigout|relay,?)\s*0\b/i.test(text) ? 0 : null;

class DeviceLink {
  closed = false;
  private buf = Buffer.alloc(0);
  private waiters: (() => void)[] = [];
  private commands: DeviceCommand[] = [];
  /** Local id → GT06 server flag (Teltonika answers in order). */
  private flags = new Map<number, number>();
  private nextId = 1;
  private serial = 0;
  private last: DeviceAvl = { time: new Date(0), lat: 35.6812, lng: 139.7671, speed: 0 };
  private running = false;
  private relayCut = false;

  private constructor(
    private readonly creds: TerminalCredentials,
    private readonly socket: Socket,
  ) {
    socket.on('data', (chunk: Buffer) => {
      this.buf = Buffer.concat([this.buf, chunk]);
      this.wake();
    });
    socket.on('close', () => {
      this.closed = true;
      this.wake();
    });
    socket.on('error', () => undefined);
  }

  static async open(creds: TerminalCredentials, host: string, port: number): Promise<DeviceLink> {
    const socket = await new Promise<Socket>((resolve, reject) => {
      const s = connect(port, host, () => resolve(s));
      s.once('error', reject);
      s.setTimeout(TIMEOUT_MS, () => s.destroy());
    });
    const link = new DeviceLink(creds, socket);
    await link.login();
    return link;
  }

  private get gt06() {
    return this.creds.protocol === 'gt06';
  }

  private wake() {
    for (const w of this.waiters.splice(0)) w();
  }

  /** Waits until `test` finds what it needs in the buffer (or the connection ends). */
  private async until<T>(test: () => T | null): Promise<T> {
    const end = Date.now() + TIMEOUT_MS;
    for (;;) {
      this.readCommands();
      const found = test();
      if (found !== null) return found;
      if (this.closed || Date.now() > end) throw new Error('connection lost');
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 200);
      });
    }
  }

  /** Takes the command frames at the head of the buffer. */
  private readCommands() {
    for (;;) {
      if (this.gt06) {
        const read = this.buf.length >= 5 && this.buf[3] === GT06.command ? readGt06Frame(this.buf) : null;
        if (!read?.frame) return;
        const c = read.frame.content;
        this.take(read.size);
        this.command(c.toString('latin1', 5, 1 + c[0]!), c.readUInt32BE(1));
      } else {
        if (this.buf.length < 8 || this.buf.readUInt32BE(0) !== 0) return;
        const size = this.buf.readUInt32BE(4) + 12;
        if (this.buf.length < size) return;
        const text = commandTextOf(this.buf.subarray(0, size));
        this.take(size);
        if (text !== null) this.command(text, 0);
      }
    }
  }

  private command(text: string, flag: number) {
    const id = this.nextId++;
    this.flags.set(id, flag);
    const cmd = cmdOf(text);
    this.commands.push({
      id,
      cmd_idx: 0,
      cmd_type: 'set_engine_boot_permission',
      cmd_info: cmd === null ? { text } : { cmd },
      created_at: new Date().toISOString(),
    });
  }

  private take(n: number): Buffer {
    const out = this.buf.subarray(0, n);
    this.buf = this.buf.subarray(n);
    return out;
  }

  private async login() {
    if (this.gt06) {
      this.socket.write(encodeGt06Login(this.creds.car_data_id, this.nextSerial()));
      await this.ack();
    } else {
      this.socket.write(encodeLogin(this.creds.car_data_id));
      const reply = await this.until(() => (this.buf.length >= 1 ? this.take(1)[0]! : null));
      if (reply !== 1) throw new Error('login refused');
    }
  }

  private nextSerial() {
    return (this.serial = (this.serial + 1) & 0xffff);
  }

  /** A GT06 acknowledgement (any frame other than a command), or a Teltonika record count. */
  private ack(): Promise<Buffer> {
    if (this.gt06)
      return this.until(() => (this.buf.length >= 10 && this.buf[3] !== GT06.command ? this.take(10) : null));
    return this.until(() => (this.buf.length >= 4 && this.buf.readUInt32BE(0) !== 0 ? this.take(4) : null));
  }

  async send(batch: BatchBody): Promise<TransportReply> {
    for (const frame of this.frames(batch.records)) {
      this.socket.write(frame);
      await this.ack();
    }
    this.readCommands();
    const commands = this.commands.splice(0);
    const body: DeviceBatchResponse = {
      seq: batch.seq,
      accepted: batch.records.length,
      rejected: [],
      duplicate: false,
      commands,
      server_time: new Date().toISOString(),
    };
    return { status: 200, body };
  }

  /** The batch as the protocol's frames; results go out as replies (they need no acknowledgement). */
  private frames(records: readonly DeviceRecordInput[]): Buffer[] {
    const out: Buffer[] = [];
    const avl: DeviceAvl[] = [];
    for (const r of records) {
      const time = new Date(r.time);
      if (r.type === 'command_result') {
        const text = r.success
          ? this.gt06
            ? 'Relay control: Success!'
            : 'DOUT1 set'
          : this.gt06
            ? 'Relay control: Fail!'
            : 'ERROR';
        const reply = this.gt06
          ? encodeGt06Reply(this.flags.get(r.command_id) ?? null, text, this.nextSerial())
          : encodeResponse(text);
        this.flags.delete(r.command_id);
        this.socket.write(reply);
        continue;
      }
      if (r.type === 'engine') {
        if (r.running) this.running = r.running === 'on';
        if (r.engine_line) this.relayCut = r.engine_line === 'disconnected';
      }
      if (r.type === 'gps')
        this.last = {
          ...this.last,
          lat: r.lat,
          lng: r.lng,
          speed: r.speed ?? 0,
          angle: r.heading ?? 0,
          satellites: r.satellites ?? 9,
        };
      if (r.type !== 'gps' && r.type !== 'engine' && r.type !== 'battery') continue;
      if (this.gt06) {
        out.push(
          r.type === 'gps'
            ? encodeGt06Location(
                {
                  time,
                  lat: r.lat,
                  lng: r.lng,
                  speed: r.speed ?? 0,
                  course: r.heading ?? 0,
                  satellites: r.satellites ?? 9,
                  acc: this.running,
                },
                this.nextSerial(),
              )
            : encodeGt06Heartbeat(
                { acc: this.running, relayCut: this.relayCut, voltageLevel: 5, gsmSignal: 4 },
                this.nextSerial(),
              ),
        );
        continue;
      }
      const io: Record<number, number> = {
        239: this.running ? 1 : 0,
        240: this.last.speed > 0 ? 1 : 0,
        179: this.relayCut ? 1 : 0,
        21: 4,
      };
      if (r.type === 'battery' && r.voltage != null) io[66] = Math.round(r.voltage * 1000);
      const prev = avl.at(-1);
      if (prev && prev.time.getTime() === time.getTime())
        Object.assign(prev, this.last, { time, io: { ...prev.io, ...io } });
      else avl.push({ ...this.last, time, io });
    }
    // A Teltonika frame holds at most 255 records; keep them small as a device would.
    for (let i = 0; i < avl.length; i += 50) out.push(encodeAvlFrame(avl.slice(i, i + 50)));
    return out;
  }

  close() {
    this.socket.destroy();
  }
}
