/**
 * Simulated Teltonika terminals in a process of their own, the TCP twin of
 * ingest.ts: each opens its own connection to TELTONIKA_PORT and logs in with
 * its IMEI (at most `loginConcurrency` logins at once, as a fleet reconnects);
 * once every terminal is in, each sends its Codec 8 AVL frames back to back,
 * each after the previous one's acknowledgement (the record count, which the
 * server sends once the records are committed). Frames are made by the
 * server's own device-side encoder and carry the records of
 * ingest-records.ts: a GPS fix each, and where the JSON terminal sends a
 * battery reading, the last fix again with the external voltage (IO 66).
 * Prints records acknowledged, wall time, and each frame's send-to-ack latency.
 */
import { connect, type Socket } from 'node:net';
import { encodeAvlFrame, encodeLogin, type DeviceAvl } from '@fleet/server/teltonika-device';
import { gl200Fri, gl200Heartbeat, type DeviceFix } from '@fleet/server/text-devices';
import { batchRecords, type IngestPlan } from '../ingest-records.js';

const opts = JSON.parse(process.argv[2]!) as IngestPlan & {
  host: string;
  port: number;
  imeis: string[];
  /** teltonika (default): Codec 8 frames, each acknowledged with its record count. gl200: Queclink GTFRI
   * reports of the frame's fixes, each followed by a GTHBD heartbeat whose SACK comes once the report
   * before it is committed (a connection's messages are handled in order). */
  protocol?: 'teltonika' | 'gl200';
  loginConcurrency?: number;
  /** An acknowledgement later than this counts as an error and ends the terminal's run. */
  ackTimeoutMs?: number;
};
const ackTimeoutMs = opts.ackTimeoutMs ?? 120_000;
const queclink = opts.protocol === 'gl200';
/** `+SACK:GTHBD,300400,<count hex 4>$` */
const SACK_SIZE = 24;

/** One device connection: reads exactly the bytes asked for, in order. */
class Conn {
  private buf: Buffer = Buffer.alloc(0);
  private want: { n: number; resolve(b: Buffer): void; reject(e: Error): void; timer: NodeJS.Timeout } | undefined;
  private ended: Error | undefined;

  private constructor(readonly socket: Socket) {
    socket.setNoDelay(true);
    socket.on('data', (chunk: Buffer) => {
      this.buf = this.buf.length ? Buffer.concat([this.buf, chunk]) : chunk;
      this.pump();
    });
    socket.on('error', (err) => this.end(err));
    socket.on('close', () => this.end(new Error('closed by the server')));
  }

  static open(host: string, port: number): Promise<Conn> {
    return new Promise((resolve, reject) => {
      const s = connect(port, host, () => {
        s.off('error', reject);
        resolve(new Conn(s));
      });
      s.once('error', reject);
    });
  }

  read(n: number, timeoutMs: number): Promise<Buffer> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.want = undefined;
        reject(new Error(`no answer within ${timeoutMs} ms`));
      }, timeoutMs);
      this.want = { n, resolve, reject, timer };
      this.pump();
    });
  }

  private pump() {
    const w = this.want;
    if (!w) return;
    if (this.buf.length >= w.n) {
      this.want = undefined;
      clearTimeout(w.timer);
      const out = this.buf.subarray(0, w.n);
      this.buf = this.buf.subarray(w.n);
      w.resolve(out);
    } else if (this.ended) {
      this.want = undefined;
      clearTimeout(w.timer);
      w.reject(this.ended);
    }
  }

  private end(err: Error) {
    this.ended ??= err;
    this.pump();
  }

  write(data: Buffer) {
    this.socket.write(data);
  }

  close() {
    this.socket.destroy();
  }
}

/** The AVL records of one frame: batchRecords' records as a Teltonika device would send them. */
function frameRecords(t: number, b: number): DeviceAvl[] {
  const out: DeviceAvl[] = [];
  let last: DeviceAvl | undefined;
  for (const r of batchRecords(opts, t, b)) {
    const time = new Date(r.time);
    if (r.type === 'gps') {
      last = { time, lat: r.lat, lng: r.lng, speed: r.speed, angle: r.heading, satellites: r.satellites };
      out.push(last);
    } else {
      const at = last ?? { time, lat: 35.6, lng: 139.6, speed: 0 };
      out.push({ ...at, time, io: { 66: Math.round(r.voltage * 1000) } });
    }
  }
  return out;
}

let errors = 0;
const failures: string[] = [];
const fail = (what: string) => {
  errors++;
  if (failures.length < 5) failures.push(what.slice(0, 200));
};

// Logins, a bounded number at once.
const loginStarted = performance.now();
const conns: (Conn | null)[] = new Array<Conn | null>(opts.imeis.length).fill(null);
let nextLogin = 0;
let loginErrors = 0;
await Promise.all(
  Array.from({ length: Math.min(opts.loginConcurrency ?? 50, opts.imeis.length) }, async () => {
    while (nextLogin < opts.imeis.length) {
      const t = nextLogin++;
      try {
        const c = await Conn.open(opts.host, opts.port);
        if (queclink) {
          // The first message names the terminal: a heartbeat, answered with its SACK once logged in.
          c.write(gl200Heartbeat(opts.imeis[t]!, 0));
          const reply = (await c.read(SACK_SIZE, 30_000)).toString('latin1');
          if (!reply.startsWith('+SACK:GTHBD')) throw new Error(`no SACK (${reply})`);
        } else {
          c.write(encodeLogin(opts.imeis[t]!));
          const reply = await c.read(1, 30_000);
          if (reply[0] !== 1) {
            c.close();
            throw new Error(`login refused (${reply[0]})`);
          }
        }
        conns[t] = c;
      } catch (err) {
        loginErrors++;
        fail(`login ${opts.imeis[t]}: ${(err as Error).message}`);
      }
    }
  }),
);
const loginSeconds = (performance.now() - loginStarted) / 1000;

const latencies: number[] = [];
let records = 0;
let frames = 0;
const started = performance.now();
await Promise.all(
  conns.map(async (c, t) => {
    if (!c) return;
    for (let b = 0; b < opts.batchesPerTerminal; b++) {
      const avl = frameRecords(t, b);
      const t0 = performance.now();
      if (queclink) {
        const fixes: DeviceFix[] = avl.filter((a) => !a.io).map((a) => ({ ...a, course: a.angle, acc: true }));
        const count = 2 * b + 1;
        c.write(Buffer.concat([gl200Fri(opts.imeis[t]!, fixes, count), gl200Heartbeat(opts.imeis[t]!, count + 1)]));
        try {
          await c.read(SACK_SIZE, ackTimeoutMs);
          latencies.push(performance.now() - t0);
          frames++;
          records += fixes.length;
        } catch (err) {
          fail(`${opts.imeis[t]} report ${b}: ${(err as Error).message}`);
          return;
        }
        continue;
      }
      c.write(encodeAvlFrame(avl));
      try {
        const ack = (await c.read(4, ackTimeoutMs)).readUInt32BE(0);
        latencies.push(performance.now() - t0);
        if (ack !== avl.length) fail(`ack ${ack} for ${avl.length} records`);
        else {
          frames++;
          records += ack;
        }
      } catch (err) {
        fail(`${opts.imeis[t]} frame ${b}: ${(err as Error).message}`);
        return;
      }
    }
  }),
);
const seconds = (performance.now() - started) / 1000;
for (const c of conns) c?.close();
latencies.sort((a, b) => a - b);
const p = (q: number) => latencies[Math.min(latencies.length - 1, Math.ceil(q * latencies.length) - 1)] ?? NaN;
console.log(
  JSON.stringify({
    connected: conns.filter(Boolean).length,
    loginErrors,
    loginSeconds,
    records,
    frames,
    errors,
    failures,
    seconds,
    p50: p(0.5),
    p95: p(0.95),
    p99: p(0.99),
    max: latencies.at(-1),
  }),
);
