/**
 * A keep-alive HTTP/1.1 connection of the leanest kind, for the ingest bench's
 * simulated terminals: each request is one prebuilt buffer (request line,
 * headers and body) written to its own socket, and the answer is read by its
 * status line, Content-Length and body alone. Terminals run on hardware of
 * their own; on this machine the client shares the server's two cores, and
 * node:http spent 3-5 µs of them a record (0.25-0.34 of a core) building and
 * parsing what never changes. Like autocannon's prebuilt requests, this keeps
 * the load generator's share small. One request at a time per connection.
 */
import net from 'node:net';

export interface RawAnswer {
  status: number;
  text: string;
}

const HEAD_END = Buffer.from('\r\n\r\n');

/** The bytes of a POST with a JSON body. */
export function postRequest(host: string, path: string, headers: Record<string, string>, body: string): Buffer {
  const payload = Buffer.from(body);
  const lines = [`POST ${path} HTTP/1.1`, `host: ${host}`, 'content-type: application/json'];
  for (const [k, v] of Object.entries(headers)) lines.push(`${k}: ${v}`);
  lines.push(`content-length: ${payload.length}`, '', '');
  return Buffer.concat([Buffer.from(lines.join('\r\n')), payload]);
}

export class RawConnection {
  private socket: net.Socket | undefined;
  private buffered: Buffer = Buffer.alloc(0);
  private waiting: { resolve(a: RawAnswer): void; reject(e: Error): void } | undefined;

  constructor(
    private readonly host: string,
    private readonly port: number,
  ) {}

  request(bytes: Buffer): Promise<RawAnswer> {
    if (this.waiting) return Promise.reject(new Error('one request at a time'));
    // None yet, or closed (by either side): opened again by the next request.
    if (!this.socket || this.socket.destroyed) this.open();
    return new Promise<RawAnswer>((resolve, reject) => {
      this.waiting = { resolve, reject };
      this.socket!.write(bytes);
    });
  }

  close() {
    this.socket?.destroy();
  }

  private open() {
    const socket = net.connect({ host: this.host, port: this.port, noDelay: true });
    this.socket = socket;
    this.buffered = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      this.buffered = this.buffered.length ? Buffer.concat([this.buffered, chunk]) : chunk;
      this.answer();
    });
    // A socket replaced since (reopened after a close) no longer has a request of its own.
    const gone = (err?: Error) => {
      if (this.socket === socket) this.fail(err ?? new Error('connection closed before the answer'));
    };
    socket.on('error', gone);
    socket.on('close', () => gone());
  }

  /** Completes the waiting request once its whole answer is buffered. */
  private answer() {
    const end = this.buffered.indexOf(HEAD_END);
    if (end === -1 || !this.waiting) return;
    const head = this.buffered.toString('latin1', 0, end);
    const status = Number(head.slice(9, 12));
    const length = /\r\ncontent-length: *(\d+)/i.exec(head);
    if (!length) {
      this.fail(new Error(`an answer without content-length: ${head.slice(0, 200)}`));
      return;
    }
    const bodyEnd = end + 4 + Number(length[1]);
    if (this.buffered.length < bodyEnd) return;
    const text = this.buffered.toString('utf8', end + 4, bodyEnd);
    this.buffered = this.buffered.subarray(bodyEnd);
    if (/\r\nconnection: *close/i.test(head)) this.close();
    const w = this.waiting;
    this.waiting = undefined;
    w.resolve({ status, text });
  }

  /** Ends the connection and refuses the waiting request, if any. */
  private fail(err: Error) {
    const w = this.waiting;
    this.waiting = undefined;
    this.close();
    w?.reject(err);
  }
}
