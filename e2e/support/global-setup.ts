import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { repoRoot, startE2eServer } from './server';

export const stateFile = path.join(repoRoot, '.tmp/e2e-server.json');

/** Builds the console, starts the real server, and hands its URL to the tests. */
export default async function globalSetup() {
  const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  if (!existsSync(chromium)) {
    throw new Error(`Chromium not found at ${chromium}. Install it with: apt-get update && apt-get install -y --no-install-recommends chromium fonts-ipafont-gothic`);
  }
  execFileSync('npm', ['run', 'build', '-w', 'apps/web'], { cwd: repoRoot, stdio: 'inherit' });
  mkdirSync(path.dirname(stateFile), { recursive: true });
  const server = await startE2eServer();
  process.env.E2E_BASE_URL = server.url;
  writeFileSync(stateFile, JSON.stringify({ pid: server.child.pid, dataDir: server.dataDir, url: server.url }));
  server.child.unref();
  server.child.stdout?.destroy();
  server.child.stderr?.destroy();
}
