#!/usr/bin/env node
/**
 * Runs every test suite of the repository in sequence and ends with one line
 * `N passed, N failed, N skipped` (CI reads it). Vitest suites report through
 * their JSON reporter, Playwright through its JSON report; a suite that exits
 * non-zero without a failing test in its report (a crash) counts as one failure.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_INSTALL = 'apt-get update && apt-get install -y --no-install-recommends chromium fonts-ipafont-gothic';
const suites = [
  { dir: 'packages/contract', kind: 'vitest' },
  { dir: 'apps/server', kind: 'vitest' },
  { dir: 'apps/web', kind: 'vitest' },
  { dir: 'e2e', kind: 'playwright', needs: 'playwright.config.ts' },
];

const reports = mkdtempSync(path.join(tmpdir(), 'fleet-test-all-'));
const total = { passed: 0, failed: 0, skipped: 0 };

const hasTestScript = (dir) => {
  const pkg = JSON.parse(readFileSync(path.join(root, dir, 'package.json'), 'utf8'));
  return typeof pkg.scripts?.test === 'string';
};

const readJson = (file) => {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
};

/** Runs the workspace's own `test` script with extra arguments; returns its exit code. */
function npmTest(dir, args, env = {}) {
  const r = spawnSync('npm', ['run', 'test', '--workspace', dir, '--', ...args], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, ...env },
  });
  return r.status ?? 1;
}

function runVitest(dir) {
  const file = path.join(reports, `${dir.replace(/\W/g, '_')}.json`);
  const code = npmTest(dir, ['--reporter=default', '--reporter=json', `--outputFile=${file}`, '--passWithNoTests']);
  const r = readJson(file);
  if (!r) return { code, counts: undefined };
  return {
    code,
    counts: { passed: r.numPassedTests, failed: r.numFailedTests, skipped: r.numPendingTests + r.numTodoTests },
  };
}

/** The browser tests drive Debian's Chromium; install it when we can, else say how. */
function ensureChromium() {
  if (existsSync(CHROMIUM)) return;
  const canInstall =
    process.getuid?.() === 0 && spawnSync('sh', ['-c', 'command -v apt-get'], { stdio: 'ignore' }).status === 0;
  if (canInstall) {
    console.log(`${CHROMIUM} is missing; installing it: ${CHROMIUM_INSTALL}`);
    const r = spawnSync('sh', ['-c', CHROMIUM_INSTALL], {
      stdio: 'inherit',
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
    if (r.status === 0 && existsSync(CHROMIUM)) return;
  }
  throw new Error(`The browser tests need Chromium at ${CHROMIUM}. Install it (as root) with:\n  ${CHROMIUM_INSTALL}`);
}

function runPlaywright(dir) {
  ensureChromium();
  const file = path.join(reports, 'playwright.json');
  const code = npmTest(dir, ['--reporter=list,json'], { PLAYWRIGHT_JSON_OUTPUT_NAME: file });
  const s = readJson(file)?.stats;
  if (!s) return { code, counts: undefined };
  return { code, counts: { passed: s.expected + s.flaky, failed: s.unexpected, skipped: s.skipped } };
}

for (const suite of suites) {
  if (!hasTestScript(suite.dir)) continue;
  if (suite.needs && !existsSync(path.join(root, suite.dir, suite.needs))) {
    console.log(`\n── ${suite.dir}: no ${suite.needs} yet, not run`);
    continue;
  }
  console.log(`\n── ${suite.dir}`);
  let result;
  try {
    result = suite.kind === 'playwright' ? runPlaywright(suite.dir) : runVitest(suite.dir);
  } catch (err) {
    console.error(`\n${suite.dir}: ${err.message}`);
    result = { code: 1, counts: { passed: 0, failed: 1, skipped: 0 } };
  }
  const counts = result.counts ?? { passed: 0, failed: 0, skipped: 0 };
  if (result.code !== 0 && counts.failed === 0) {
    console.error(
      `\n${suite.dir}: exited with code ${result.code} ${result.counts ? 'without a failing test' : 'and no report'}; counted as one failure`,
    );
    counts.failed = 1;
  }
  for (const k of Object.keys(total)) total[k] += counts[k];
}

rmSync(reports, { recursive: true, force: true });
console.log(`\n${total.passed} passed, ${total.failed} failed, ${total.skipped} skipped`);
process.exit(total.failed > 0 ? 1 : 0);
