import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { repoRoot } from '../src/config.js';
import { openDatabase } from '../src/db/database.js';
import { adminQuery, dropDatabase, ident, uniqueDatabaseName, urlForDatabase } from './databases.js';

/**
 * The documented ways to run the compiled server, stopped the way Docker, systemd and Ctrl-C stop them:
 * one signal to the process the supervisor started must end every process of the tree (npm and node),
 * with the shutdown logged. `npm start` builds first (its `prestart`); the build is done once here,
 * so it runs with --ignore-scripts, which skips only the pre/post scripts.
 */
const commands: { name: string; argv: string[]; signal: NodeJS.Signals }[] = [
  { name: 'npm start', argv: ['npm', 'start', '--ignore-scripts'], signal: 'SIGTERM' },
  { name: 'npm start', argv: ['npm', 'start', '--ignore-scripts'], signal: 'SIGINT' },
  { name: 'npm run start -w apps/server', argv: ['npm', 'run', 'start', '-w', 'apps/server'], signal: 'SIGTERM' },
  { name: 'node apps/server/dist/main.js', argv: [process.execPath, 'apps/server/dist/main.js'], signal: 'SIGTERM' },
];

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

interface Started {
  child: ChildProcess;
  lines: () => Record<string, unknown>[];
  /** Everything the process tree wrote to stdout. */
  stdout: () => string;
  exited: Promise<number | null>;
}

/**
 * Every line of stdout that is not npm's own header (`> fleet-console@… start`, `> exec node …`, printed by
 * npm before the script runs) must be one JSON object.
 */
function expectJsonLines(stdout: string, viaNpm: boolean) {
  const lines = stdout.split('\n').filter((l) => l !== '' && !(viaNpm && l.startsWith('> ')));
  expect(lines.length).toBeGreaterThan(0);
  for (const l of lines) expect(() => JSON.parse(l) as unknown, l).not.toThrow();
  return lines.map((l) => JSON.parse(l) as Record<string, unknown>);
}

function start(argv: string[], env: Record<string, string>): Promise<Started & { serverPid: number }> {
  const [file = '', ...args] = argv;
  const child = spawn(file, args, {
    cwd: repoRoot,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let stdout = '';
  const parsed: Record<string, unknown>[] = [];
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    child.stderr!.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      stdout += chunk.toString();
      const text = chunk.toString();
      for (const line of text.split('\n')) {
        if (!line.startsWith('{')) continue;
        try {
          const event = JSON.parse(line) as Record<string, unknown>;
          parsed.push(event);
          if (typeof event.msg === 'string' && event.msg.startsWith('Server listening at'))
            resolve({ child, lines: () => parsed, stdout: () => stdout, exited, serverPid: Number(event.pid) });
        } catch {
          // A line split across two chunks: the listening line is short and arrives whole.
        }
      }
    });
    void exited.then((code) => reject(new Error(`exited (${code}) before listening:\n${out}`)));
  });
}

const databaseUrl = inject('databaseUrl');

/**
 * README's connection sizing names the LISTEN connections an instance holds; this counts them on a started
 * instance (sessions, terminals, commands; the live map's opens with its first viewer) and checks the text.
 */
async function expectListenConnections(name: string) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  let n = 0;
  try {
    for (let i = 0; i < 50; i++) {
      const { rows } = await client.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1 AND query LIKE 'LISTEN %'`,
        [name],
      );
      n = rows[0]!.n;
      if (n >= 3) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  } finally {
    await client.end();
  }
  expect(n).toBe(3);
  const readme = await readFile(path.join(repoRoot, 'README.md'), 'utf8');
  expect(readme).toContain('three `LISTEN` connections');
}
let dataDir = '';
let databaseName = '';
const leftovers: number[] = [];

/** The newest modification time of the sources under `dir` (tests included: cheap and harmless). */
const newestSource = (dir: string): number =>
  readdirSync(dir, { withFileTypes: true }).reduce((newest, entry) => {
    const full = path.join(dir, entry.name);
    const time = entry.isDirectory() ? newestSource(full) : statSync(full).mtimeMs;
    return Math.max(newest, time);
  }, 0);

/**
 * The compiled server, as `npm start` would build it, unless dist/main.js is newer than every source
 * (CI builds before testing). The PGlite and PostgreSQL projects run this file at the same time, so one
 * build at a time, under a lock directory (a lock left by a killed run is taken after ten minutes).
 */
async function buildServer() {
  const main = path.join(repoRoot, 'apps/server/dist/main.js');
  const lock = path.join(repoRoot, 'apps/server/.start-stop-build-lock');
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      if (Date.now() - statSync(lock, { throwIfNoEntry: false })!.mtimeMs > 600_000)
        rmSync(lock, { recursive: true, force: true });
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
  try {
    const built = existsSync(main) ? statSync(main).mtimeMs : 0;
    const sources = ['packages/contract/src', 'apps/server/src'].map((dir) => newestSource(path.join(repoRoot, dir)));
    if (built > Math.max(...sources)) return;
    // A type error elsewhere still emits: checked by main.js existing.
    for (const project of ['packages/contract/tsconfig.build.json', 'apps/server/tsconfig.build.json'])
      spawnSync(process.execPath, [path.join(repoRoot, 'node_modules/typescript/bin/tsc'), '-p', project], {
        cwd: repoRoot,
        stdio: 'ignore',
      });
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

beforeAll(async () => {
  await buildServer();
  expect(existsSync(path.join(repoRoot, 'apps/server/dist/main.js'))).toBe(true);
  if (databaseUrl) {
    databaseName = uniqueDatabaseName('fc_stop');
    await adminQuery(
      databaseUrl,
      `CREATE DATABASE ${ident(databaseName)} TEMPLATE ${ident(inject('templateDatabase'))}`,
    );
  } else {
    // A migrated copy, so each start only checks the migrations.
    dataDir = await mkdtemp(path.join(tmpdir(), 'fleet-stop-'));
    const database = await openDatabase({ dataDir, loadDataDir: new Blob([await readFile(inject('snapshotPath'))]) });
    await database.close();
  }
}, 600_000);

afterAll(async () => {
  for (const pid of leftovers) if (alive(pid)) process.kill(pid, 'SIGKILL');
  if (databaseName) await dropDatabase(databaseUrl, databaseName);
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

describe('stopping the documented start commands', () => {
  for (const { name, argv, signal } of commands) {
    it(`${name}: ${signal} ends npm and node, logging the shutdown`, async () => {
      const server = await start(argv, {
        NODE_ENV: 'production',
        LOG_FORMAT: 'json',
        LOG_LEVEL: 'info',
        HOST: '127.0.0.1',
        PORT: '0',
        OSMAND_PORT: '0',
        TELTONIKA_PORT: '0',
        GT06_PORT: '0',
        JT808_PORT: '0',
        H02_PORT: '0',
        GPS103_PORT: '0',
        GL200_PORT: '0',
        SIMULATE: '0',
        DATABASE_URL: databaseName ? urlForDatabase(databaseUrl, databaseName) : '',
        DATA_DIR: dataDir,
      });
      if (databaseName && argv[0] !== 'npm') await expectListenConnections(databaseName);
      const pids = [server.child.pid!, server.serverPid];
      leftovers.push(...pids);
      server.child.kill(signal);
      expect(await server.exited).toBe(0);
      // npm waits for its script; so once it has exited, the server it ran must have too.
      expect(pids.filter(alive)).toEqual([]);
      // LOG_FORMAT=json: nothing but JSON on stdout, the banner included, as an event of its own.
      const events = expectJsonLines(server.stdout(), argv[0] === 'npm');
      const messages = events.map((l) => l.msg);
      expect(messages).toContain('fleet console started');
      expect(messages).toContain('shutdown begun');
      expect(messages).toContain('shutdown done');
      // Production on the embedded database says what it cannot do, and how to back it up.
      const warning = messages.find(
        (m): m is string => typeof m === 'string' && m.startsWith('production on the embedded database'),
      );
      expect(warning !== undefined).toBe(!databaseName);
      // ... and the command that moves the data to PostgreSQL.
      if (warning) expect(warning).toContain('npm run fleet -- copy-to-postgres');
    });
  }
});

describe('a start that cannot go on', () => {
  it('under LOG_FORMAT=json logs one fatal JSON event on stdout and exits 1', async () => {
    const child = spawn(process.execPath, ['apps/server/dist/main.js'], {
      cwd: repoRoot,
      env: { ...process.env, NODE_ENV: 'production', LOG_FORMAT: 'json', PORT: 'not-a-port' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(1);
    const events = expectJsonLines(stdout, false);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ level: 60, msg: 'start-up failed' });
    expect(JSON.stringify(events[0]!.err)).toContain('PORT');
  });
});
