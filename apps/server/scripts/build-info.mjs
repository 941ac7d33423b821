// Writes dist/build-info.json: the commit this build was made from (GET /api/version, `npm run fleet -- version`).
// A build outside a git checkout (a source tarball) may name it in GIT_COMMIT; otherwise it is null.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';

let commit = process.env.GIT_COMMIT || null;
if (!commit) {
  try {
    commit = execFileSync('git', ['rev-parse', 'HEAD'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
  } catch {
    commit = null;
  }
}
mkdirSync(new URL('../dist/', import.meta.url), { recursive: true });
writeFileSync(new URL('../dist/build-info.json', import.meta.url), `${JSON.stringify({ commit })}\n`);
