import { loadConfig } from './config.js';
import { HASH_PARAMS } from './credentials/password.js';
import { DEMO_PASSWORD, demoAccounts } from './seed/demo-data.js';
import { startServer } from './server.js';

const config = loadConfig();
// The signal handlers come first: a supervisor may stop the server while it is still starting.
const starting = startServer(config);
let stopping = false;
/**
 * SIGTERM (Docker, systemd, Kubernetes) and SIGINT (Ctrl-C): stop taking work and drain, but never for longer
 * than SHUTDOWN_TIMEOUT_MS, since a supervisor's own kill follows soon after and a stuck close would hold the port.
 */
const shutdown = async (signal: NodeJS.Signals) => {
  if (stopping) return;
  stopping = true;
  const server = await starting;
  const log = server.app.log;
  log.info({ signal, timeoutMs: config.SHUTDOWN_TIMEOUT_MS }, 'shutdown begun');
  setTimeout(() => {
    log.error({ timeoutMs: config.SHUTDOWN_TIMEOUT_MS }, 'shutdown deadline passed; exiting without a full drain');
    process.exit(1);
  }, config.SHUTDOWN_TIMEOUT_MS).unref();
  try {
    await server.stop();
    log.info('shutdown done');
    process.exit(0);
  } catch (err) {
    log.error({ err }, 'shutdown failed');
    process.exit(1);
  }
};
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => void shutdown(signal));
const server = await starting;

const lines = [
  '',
  `  フリートコンソール: ${server.url}`,
  `  データベース: ${server.database.kind === 'postgres' ? 'PostgreSQL (DATABASE_URL)' : `PGlite (${config.dataDir})`}`,
];
if (!config.production) {
  lines.push(`  デモ用ログイン（パスワードはすべて ${DEMO_PASSWORD}）:`);
  for (const a of demoAccounts) lines.push(`    ${a.account_id.padEnd(16)} ${a.label}`);
}
if (config.passwordHashLog2N < HASH_PARAMS.log2N)
  lines.push(
    `  注意: NODE_ENV=${config.NODE_ENV} はテスト用です（パスワードを弱い scrypt コストで保存します）。本番では使わないでください。`,
  );
console.log(lines.join('\n') + '\n');
if (config.production && server.database.kind === 'pglite')
  server.app.log.warn(
    { dataDir: config.dataDir },
    'production on the embedded database (PGlite): one server process only (no replicas, no rolling restart), ' +
      'one statement at a time, backups only while stopped (`npm run fleet -- backup <file>`); ' +
      'set DATABASE_URL to a PostgreSQL database for anything more (README "Deploying")',
  );
