import { connect, type Socket } from 'node:net';
import { linkProtocols, type DeviceBatchResponse, type DeviceCommand, type LinkProtocol } from '@fleet/contract';
import { commandCmd, speakers, type DevicePoint, type Speaker } from './device-speakers.js';
import type { BatchBody, TerminalCredentials, Transport, TransportReply } from './transport.js';

/**
 * The simulator's terminals that speak a TCP protocol (Teltonika, GT06, JT/T 808,
 * H02, GPS103, Queclink), over the real listeners. The simulated terminal still
 * thinks in batches of our records; this transport keeps one connection per
 * terminal, turns a batch into the protocol's frames (device-speakers.ts), and
 * turns the immobiliser commands the server writes into the `commands` of the
 * reply, so the terminal executes them and its `command_result` records go back
 * as the protocol's confirmations. Other terminals go to `fallback`.
 */
export type LinkPorts = { host: string } & Partial<Record<LinkProtocol, number | null>>;

const TIMEOUT_MS = 10_000;

const linkOf = (t: TerminalCredentials): LinkProtocol | null =>
  (linkProtocols as readonly string[]).includes(t.protocol ?? '') ? (t.protocol as LinkProtocol) : null;

/** Leaves out the terminals whose listener is off. */
export function withOpenLinks<T extends TerminalCredentials>(terminals: readonly T[], ports: LinkPorts): T[] {
  return terminals.filter((t) => {
    const protocol = linkOf(t);
    return protocol === null || typeof ports[protocol] === 'number';
  });
}

export function linkTransport(fallback: Transport, ports: LinkPorts): Transport {
  const links = new Map<string, DeviceLink>();
  return async (creds, batch) => {
    const protocol = linkOf(creds);
    if (protocol === null) return fallback(creds, batch);
    const port = ports[protocol];
    if (typeof port !== 'number') throw new Error(`${protocol} listener is off`);
    let link = links.get(creds.car_data_id);
    if (!link || link.closed) {
      link = await DeviceLink.open(protocol, creds.car_data_id, ports.host, port);
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

class DeviceLink {
  closed = false;
  private buf = Buffer.alloc(0);
  private waiters: (() => void)[] = [];
  private answers: Buffer[] = [];
  private commands: DeviceCommand[] = [];
  /** Local command id → what the protocol's confirmation names. */
  private refs = new Map<number, number>();
  private nextId = 1;
  private point: DevicePoint = {
    time: new Date(0),
    lat: 35.6812,
    lng: 139.7671,
    speed: 0,
    course: 0,
    satellites: 9,
    acc: false,
    relayCut: false,
    kind: 'state',
  };

  private constructor(
    private readonly protocol: LinkProtocol,
    private readonly speaker: Speaker,
    private readonly socket: Socket,
  ) {
    socket.on('data', (chunk: Buffer) => {
      this.buf = Buffer.concat([this.buf, chunk]);
      this.hear();
      this.wake();
    });
    socket.on('close', () => {
      this.closed = true;
      this.wake();
    });
    socket.on('error', () => undefined);
  }

  static async open(protocol: LinkProtocol, id: string, host: string, port: number): Promise<DeviceLink> {
    const socket = await new Promise<Socket>((resolve, reject) => {
      const s = connect(port, host, () => resolve(s));
      s.once('error', reject);
      s.setTimeout(TIMEOUT_MS, () => s.destroy());
    });
    const link = new DeviceLink(protocol, speakers[protocol](id), socket);
    await link.speaker.login({ write: (b) => socket.write(b), answer: () => link.answer() });
    return link;
  }

  private wake() {
    for (const w of this.waiters.splice(0)) w();
  }

  /** Sorts what arrived into answers and commands. */
  private hear() {
    for (;;) {
      const heard = this.speaker.hear(this.buf);
      if (!heard) return;
      const bytes = this.buf.subarray(0, heard.size);
      this.buf = this.buf.subarray(heard.size);
      if (heard.kind === 'answer') this.answers.push(bytes);
      if (heard.kind === 'command') this.command(heard.text, heard.ref);
    }
  }

  private async answer(): Promise<Buffer> {
    const end = Date.now() + TIMEOUT_MS;
    for (;;) {
      const next = this.answers.shift();
      if (next) return next;
      if (this.closed || Date.now() > end) throw new Error('connection lost');
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 200);
      });
    }
  }

  private command(text: string, ref: number) {
    const id = this.nextId++;
    this.refs.set(id, ref);
    const cmd = commandCmd(this.protocol, text);
    this.commands.push({
      id,
      cmd_idx: 0,
      cmd_type: 'set_engine_boot_permission',
      cmd_info: cmd === null ? { text } : { cmd },
      created_at: new Date().toISOString(),
    });
  }

  async send(batch: BatchBody): Promise<TransportReply> {
    const points: DevicePoint[] = [];
    for (const r of batch.records) {
      const time = new Date(r.time);
      if (r.type === 'command_result') {
        const confirmation = this.speaker.confirm(this.refs.get(r.command_id) ?? 0, r.success, { ...this.point, time });
        this.refs.delete(r.command_id);
        if (confirmation) this.socket.write(confirmation);
        continue;
      }
      if (r.type === 'engine') {
        if (r.running) this.point.acc = r.running === 'on';
        if (r.engine_line) this.point.relayCut = r.engine_line === 'disconnected';
      }
      if (r.type === 'gps')
        Object.assign(this.point, {
          lat: r.lat,
          lng: r.lng,
          speed: r.speed ?? 0,
          course: r.heading ?? 0,
          satellites: r.satellites ?? 9,
        });
      if (r.type !== 'gps' && r.type !== 'engine' && r.type !== 'battery') continue;
      const point: DevicePoint = {
        ...this.point,
        time,
        kind: r.type === 'gps' ? 'gps' : 'state',
        ...(r.type === 'battery' && r.voltage != null ? { voltage: r.voltage } : {}),
      };
      // Records of one moment are one report: the protocols key a report by its time.
      const prev = points.at(-1);
      if (prev && prev.time.getTime() === time.getTime())
        Object.assign(prev, point, {
          kind: prev.kind === 'gps' ? 'gps' : point.kind,
          voltage: point.voltage ?? prev.voltage,
        });
      else points.push(point);
    }
    const { frames, answered } = this.speaker.report(points);
    for (const frame of frames) {
      this.socket.write(frame);
      if (answered) await this.answer();
    }
    const barrier = this.speaker.barrier;
    if (!answered && barrier) {
      this.socket.write(barrier());
      await this.answer();
    }
    const body: DeviceBatchResponse = {
      seq: batch.seq,
      accepted: batch.records.length,
      rejected: [],
      duplicate: false,
      commands: this.commands.splice(0),
      server_time: new Date().toISOString(),
    };
    return { status: 200, body };
  }

  close() {
    this.socket.destroy();
  }
}
