import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const a = s.address();
      s.close(() => (typeof a === 'object' && a ? resolve(a.port) : reject(new Error('no port'))));
    });
  });

export interface E2eServer {
  url: string;
  /** TELTONIKA_PORT of the server (a free port), for tests that play a Teltonika terminal. */
  teltonikaPort: number;
  /** H02_PORT of the server (a free port), for tests that play an H02 terminal. */
  h02Port: number;
  child: ChildProcess;
  dataDir: string;
}

/**
 * Starts the real server (`tsx src/main.ts`) on a free port with a fresh
 * embedded database and the demo seed, and waits until it answers.
 */
export async function startE2eServer(extraEnv: Record<string, string> = {}): Promise<E2eServer> {
  const port = await freePort();
  const teltonikaPort = await freePort();
  const h02Port = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'fleet-e2e-'));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    // Passwords hashed at the tests' cheaper scrypt cost (config's passwordHashLog2N): about eighty sign-ins
    // at the production cost (most of a second each) otherwise. The session cache stays on, as in every other start.
    NODE_ENV: 'test',
    SESSION_CACHE: '1',
    SIMULATE: '0',
    TELTONIKA_PORT: String(teltonikaPort),
    GT06_PORT: '0',
    H02_PORT: String(h02Port),
    JT808_PORT: '0',
    GPS103_PORT: '0',
    GL200_PORT: '0',
    // The push service of push.spec.ts's subscription (never reached: the history shows its failure).
    PUSH_SERVICE_HOSTS: 'push.invalid',
    ...extraEnv,
  };
  delete env.DATABASE_URL;
  delete env.INIT_CWD;
  const child = spawn(process.execPath, ['--conditions=@fleet/source', '--import', 'tsx', 'src/main.ts'], {
    cwd: path.join(repoRoot, 'apps/server'),
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
  const url = `http://127.0.0.1:${port}`;
  // tsx compiles the server's sources on its first start: on a busy two-core machine with a cold cache that
  // alone took over a minute.
  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited early:\n${output}`);
    const ok = await fetch(`${url}/`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return { url, child, dataDir, teltonikaPort, h02Port };
    await new Promise((r) => setTimeout(r, 300));
  }
  child.kill('SIGKILL');
  throw new Error(`server did not start within 180 s:\n${output}`);
}

export async function stopE2eServer(s: { pid?: number; dataDir?: string }) {
  if (s.pid) {
    try {
      process.kill(s.pid, 'SIGTERM');
    } catch {
      /* already gone */
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  if (s.dataDir) rmSync(s.dataDir, { recursive: true, force: true });
}
