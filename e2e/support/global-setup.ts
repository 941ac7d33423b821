import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { startSmtpReceiver } from '@fleet/server/smtp-receiver';
import { startGsiStub } from './gsi-stub';
import { repoRoot, startE2eServer } from './server';

export const stateFile = path.join(repoRoot, '.tmp/e2e-server.json');
/** Every mail the server sent during the run, for tests that follow a link in a mail. */
export const mailboxFile = path.join(repoRoot, '.tmp/e2e-mailbox.json');

/** The newest modification time below `p` (a file or a folder), 0 when it does not exist. */
function newest(p: string): number {
  const stat = statSync(p, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(p).reduce((m, name) => Math.max(m, newest(path.join(p, name))), 0);
}

/**
 * Whether apps/web/dist was built after every source it is built from (CI builds just before the tests):
 * then the run uses it as it is; otherwise it is built again.
 */
function webBuildIsFresh(): boolean {
  const built = newest(path.join(repoRoot, 'apps/web/dist/index.html'));
  const sources = [
    'apps/web/src',
    'apps/web/public',
    'apps/web/index.html',
    'apps/web/vite.config.ts',
    'apps/web/package.json',
    'packages/contract/src',
  ];
  return built > 0 && sources.every((s) => newest(path.join(repoRoot, s)) < built);
}

/** Builds the console unless its build is fresh, starts the real server, and hands its URL to the tests. */
export default async function globalSetup() {
  const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  if (!existsSync(chromium)) {
    throw new Error(
      `Chromium not found at ${chromium}. Install it with: apt-get update && apt-get install -y --no-install-recommends chromium fonts-ipafont-gothic`,
    );
  }
  if (!webBuildIsFresh()) execFileSync('npm', ['run', 'build', '-w', 'apps/web'], { cwd: repoRoot, stdio: 'inherit' });
  mkdirSync(path.dirname(stateFile), { recursive: true });
  // A real SMTP receiver on loopback; the server sends its mail there.
  const smtp = await startSmtpReceiver();
  writeFileSync(mailboxFile, '[]');
  let seen = 0;
  const flush = setInterval(() => {
    if (smtp.mails.length === seen) return;
    seen = smtp.mails.length;
    writeFileSync(mailboxFile, JSON.stringify(smtp.mails.map(({ to, subject, text }) => ({ to, subject, text }))));
  }, 200);
  flush.unref();
  // GSI's geocoding services, stubbed on loopback: the tests never reach the internet.
  const gsi = await startGsiStub();
  const server = await startE2eServer({
    SMTP_URL: smtp.url,
    PUBLIC_URL: 'http://e2e.invalid',
    REVERSE_GEOCODER_URL: gsi.reverseUrl,
    ADDRESS_SEARCH_URL: gsi.searchUrl,
    GEOCODER_RATE: '20',
  });
  process.env.E2E_BASE_URL = server.url;
  process.env.E2E_TELTONIKA_PORT = String(server.teltonikaPort);
  process.env.E2E_H02_PORT = String(server.h02Port);
  writeFileSync(stateFile, JSON.stringify({ pid: server.child.pid, dataDir: server.dataDir, url: server.url }));
  server.child.unref();
  server.child.stdout?.destroy();
  server.child.stderr?.destroy();
}
