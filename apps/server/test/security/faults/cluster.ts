import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { chown, mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { clientConfig, type Call, type CallRequest, type CallResponse } from '@fleet/contract';
import pg from 'pg';

/**
 * A private PostgreSQL cluster for the fault tests: initdb into a temporary
 * folder, listening on a free loopback port, started, stopped, restarted and
 * removed by the tests alone. The machine's own PostgreSQL is never touched.
 */
const run = promisify(execFile);
const PG_ROOT = '/usr/lib/postgresql';

/** The newest installed server's bin folder, or undefined when there is no initdb. */
export function findPgBin(): string | undefined {
  if (!existsSync(PG_ROOT)) return undefined;
  const versions = readdirSync(PG_ROOT)
    .filter((v) => existsSync(path.join(PG_ROOT, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] && path.join(PG_ROOT, versions[0], 'bin');
}

/** PostgreSQL refuses to run as root: as root, run its tools as the postgres user. */
const asRoot = process.getuid?.() === 0;
export const canRunPostgres = () => !!findPgBin() && (!asRoot || existsSync('/usr/sbin/runuser'));

/** Whether a fault test file can run; says so visibly when it cannot (no PostgreSQL server binaries). */
export function faultTestsAvailable(): boolean {
  const available = canRunPostgres();
  if (!available)
    console.warn(
      '\n⚠ fault tests skipped: no PostgreSQL server (initdb) under /usr/lib/postgresql to start a private cluster with\n',
    );
  return available;
}

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export interface Cluster {
  port: number;
  /** postgres://postgres@127.0.0.1:<port>/<database> */
  url(database?: string): string;
  start(): Promise<void>;
  stop(mode?: 'fast' | 'immediate'): Promise<void>;
  /** The postmaster's process id (postmaster.pid), for signals. */
  pid(): Promise<number>;
  destroy(): Promise<void>;
}

export async function createCluster(): Promise<Cluster> {
  const bin = findPgBin()!;
  const dir = await mkdtemp(path.join(tmpdir(), 'fleet-faults-'));
  const data = path.join(dir, 'data');
  const port = await freePort();
  if (asRoot) {
    const { stdout } = await run('id', ['-u', 'postgres']);
    const { stdout: gid } = await run('id', ['-g', 'postgres']);
    await chown(dir, Number(stdout), Number(gid));
  }
  const tool = (name: string, args: string[], timeout = 60_000) =>
    asRoot
      ? run('runuser', ['-u', 'postgres', '--', path.join(bin, name), ...args], { timeout })
      : run(path.join(bin, name), args, { timeout });

  await tool('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync', '--locale=C']);
  const options = `-p ${port} -c listen_addresses=127.0.0.1 -k ${dir} -c max_connections=50`;
  const cluster: Cluster = {
    port,
    url: (database = 'postgres') => `postgres://postgres@127.0.0.1:${port}/${database}`,
    start: async () => {
      await tool('pg_ctl', ['-D', data, '-o', options, '-l', path.join(dir, 'log'), '-w', '-t', '30', 'start']);
    },
    stop: async (mode = 'fast') => {
      await tool('pg_ctl', ['-D', data, '-m', mode, '-w', '-t', '30', 'stop']);
    },
    pid: async () => {
      const { stdout } = await (asRoot
        ? run('cat', [path.join(data, 'postmaster.pid')])
        : run('cat', [path.join(data, 'postmaster.pid')]));
      return Number(stdout.split('\n')[0]);
    },
    destroy: async () => {
      await cluster.stop('immediate').catch(() => undefined);
      await rm(dir, { recursive: true, force: true });
    },
  };
  await cluster.start();
  return cluster;
}

/** One statement on a fresh connection (no pool to outlive the test). */
export async function query<T extends pg.QueryResultRow>(
  url: string,
  text: string,
  values: unknown[] = [],
): Promise<T[]> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    return (await client.query<T>(text, values)).rows;
  } finally {
    await client.end();
  }
}

/**
 * A port that accepts connections and never answers: a database that is
 * unreachable in the worst way (a hung server, a dropped route).
 */
export async function blackHole(port: number): Promise<{ close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
    s.on('error', () => undefined);
  });
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(port, '127.0.0.1', resolve));
  return {
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

const serverDir = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../../..');

export interface ServerProcess {
  url: string;
  child: ChildProcess;
  output(): string;
  /** Resolves with the exit code or signal once the process is gone. */
  exited: Promise<number | string | null>;
}

/**
 * The real server (src/main.ts through tsx) in production mode on a free port; resolves once it listens.
 * `env` adds to or overrides its environment (SMTP_URL, for one).
 */
export async function startServerProcess(
  databaseUrl: string,
  timeoutMs = 60_000,
  env: Record<string, string> = {},
): Promise<ServerProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--conditions=@fleet/source', '--import', 'tsx', 'src/main.ts'], {
    cwd: serverDir,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      DATABASE_URL: databaseUrl,
      PORT: String(port),
      HOST: '127.0.0.1',
      SIMULATE: '0',
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (c: Buffer) => (out += String(c)));
  child.stderr!.on('data', (c: Buffer) => (out += String(c)));
  const exited = new Promise<number | string | null>((resolve) =>
    child.once('exit', (code, signal) => resolve(code ?? signal)),
  );
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`server exited while starting:\n${out}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server did not listen within ${timeoutMs} ms:\n${out}`);
    }
    try {
      if ((await callServer(url, undefined, clientConfig, {}, 2000)).status === 200) break;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return { url, child, output: () => out, exited };
}

/** Stops a server process that is still running: SIGTERM, then SIGKILL after 10 s. */
export async function stopServerProcess(server: ServerProcess | undefined): Promise<void> {
  const running = () => server !== undefined && server.child.exitCode === null && server.child.signalCode === null;
  if (!running()) return;
  server!.child.kill('SIGTERM');
  await Promise.race([server!.exited, new Promise((r) => setTimeout(r, 10_000))]);
  if (running()) server!.child.kill('SIGKILL');
}

/** The answer of a server process to a contract call: its status and raw text; `body` parses a 2xx as the contract reads it. */
export interface ServerAnswer<C extends Call> {
  status: number;
  text: string;
  readonly body: CallResponse<C>;
}

/**
 * A contract call to a server process over its socket (callAs's counterpart for a server of its own process):
 * the path from the Call, the body type-checked against its request, a bearer token when given.
 */
export async function callServer<C extends Call>(
  baseUrl: string,
  token: string | undefined,
  call: C,
  body: NoInfer<CallRequest<C>>,
  timeoutMs = 20_000,
): Promise<ServerAnswer<C>> {
  const res = await fetch(`${baseUrl}${call.path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body ?? {}),
    signal: AbortSignal.timeout(timeoutMs),
  });
  const text = await res.text();
  return {
    status: res.status,
    text,
    get body() {
      if (res.status < 200 || res.status >= 300)
        throw new Error(`${call.path}: expected 2xx, got ${res.status}: ${text}`);
      return call.response.parse(JSON.parse(text)) as CallResponse<C>;
    },
  };
}
