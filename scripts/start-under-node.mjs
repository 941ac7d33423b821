#!/usr/bin/env node
/**
 * A real start of the built server under another Node binary (CI: the newest supported LTS, installed from
 * the npm registry's official binaries): `node apps/server/dist/main.js` in production with JSON logs, then
 * GET /readyz must answer 200, and SIGTERM must end it with `shutdown done` and exit code 0.
 * Usage: node scripts/start-under-node.mjs <path to node>. On PostgreSQL (DATABASE_URL) in a database of its
 * own, created and dropped here; otherwise on the embedded database in a temporary folder.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const nodeBinary = process.argv[2];
if (!nodeBinary) {
  console.error('usage: node scripts/start-under-node.mjs <path to node>');
  process.exit(2);
}
const adminUrl = process.env.DATABASE_URL ?? '';
const database = `fc_runtime_${process.pid}_${randomBytes(3).toString('hex')}`;
const admin = async (statement) => {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
};
const urlFor = (name) => {
  const u = new URL(adminUrl);
  u.pathname = `/${name}`;
  return u.toString();
};

let dataDir = '';
if (adminUrl) await admin(`CREATE DATABASE "${database}"`);
else dataDir = mkdtempSync(path.join(tmpdir(), 'fleet-runtime-'));

const fail = (message) => {
  throw new Error(message);
};
let child;
try {
  child = spawn(nodeBinary, ['--enable-source-maps', 'apps/server/dist/main.js'], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      LOG_FORMAT: 'json',
      HOST: '127.0.0.1',
      PORT: '0',
      OSMAND_PORT: '0',
      TELTONIKA_PORT: '0',
      GT06_PORT: '0',
      DATABASE_URL: adminUrl ? urlFor(database) : '',
      DATA_DIR: dataDir,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const events = [];
  let pending = '';
  const exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
  const started = new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk) => {
      pending += chunk.toString();
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) {
        if (line === '') continue;
        let event;
        try {
          event = JSON.parse(line);
        } catch {
          return reject(new Error(`not a JSON log line: ${line}`));
        }
        events.push(event);
        if (event.msg === 'fleet console started') resolve(event);
      }
    });
    void exited.then((code) => reject(new Error(`exited (${code}) before it started`)));
  });
  const timeout = setTimeout(() => child.kill('SIGKILL'), 120_000);
  const banner = await started;
  const port = new URL(banner.url).port;
  const version = (await (await fetch(`http://127.0.0.1:${port}/api/version`)).json()).version;
  const ready = await fetch(`http://127.0.0.1:${port}/readyz`);
  if (ready.status !== 200) fail(`/readyz answered ${ready.status}`);
  child.kill('SIGTERM');
  const code = await exited;
  clearTimeout(timeout);
  if (code !== 0) fail(`exit code ${code} after SIGTERM`);
  if (!events.some((e) => e.msg === 'shutdown done')) fail('no "shutdown done" line');
  const runtime =
    (await new Promise((resolve) => {
      const v = spawn(nodeBinary, ['--version'], { stdio: ['ignore', 'pipe', 'inherit'] });
      let out = '';
      v.stdout.on('data', (c) => (out += c));
      v.once('exit', () => resolve(out.trim()));
    })) || 'unknown';
  console.log(
    `Node ${runtime}: the server ${version} started on ${adminUrl ? 'PostgreSQL' : 'PGlite'}, /readyz 200, SIGTERM -> exit 0`,
  );
} finally {
  if (child && child.exitCode === null) child.kill('SIGKILL');
  if (adminUrl) await admin(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
}
