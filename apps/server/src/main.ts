import { loadConfig, type Config } from './config.js';
import { HASH_PARAMS } from './credentials/password.js';
import { formatFromEnv, startupLog } from './ops/startup-log.js';
import { DEMO_PASSWORD, demoAccounts } from './seed/demo-data.js';
import { startServer, type RunningServer } from './server.js';

/** A start that cannot go on is one fatal log event (JSON under LOG_FORMAT=json, like every other line), then exit 1. */
function fail(log: ReturnType<typeof startupLog>, err: unknown): never {
  log.fatal({ err }, 'start-up failed');
  process.exit(1);
}

let config: Config;
try {
  config = loadConfig();
} catch (err) {
  // The configuration did not parse: its LOG_FORMAT, read as the configuration would.
  fail(startupLog(formatFromEnv(process.env)), err);
}
const log = startupLog(config.logFormat, config.LOG_LEVEL);
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
  let server: RunningServer;
  try {
    server = await starting;
  } catch {
    return; // The failed start is logged and exits below.
  }
  const appLog = server.app.log;
  appLog.info({ signal, timeoutMs: config.SHUTDOWN_TIMEOUT_MS }, 'shutdown begun');
  setTimeout(() => {
    appLog.error({ timeoutMs: config.SHUTDOWN_TIMEOUT_MS }, 'shutdown deadline passed; exiting without a full drain');
    process.exit(1);
  }, config.SHUTDOWN_TIMEOUT_MS).unref();
  try {
    await server.stop();
    appLog.info('shutdown done');
    process.exit(0);
  } catch (err) {
    appLog.error({ err }, 'shutdown failed');
    process.exit(1);
  }
};
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => void shutdown(signal));
let server: RunningServer;
try {
  server = await starting;
} catch (err) {
  fail(log, err);
}

const database = server.database.kind === 'postgres' ? 'PostgreSQL (DATABASE_URL)' : `PGlite (${config.dataDir})`;
const weakHashes = config.passwordHashLog2N < HASH_PARAMS.log2N;
if (config.logFormat === 'json') {
  // The banner as one event: a collector reads the URL and the database like any other field.
  server.app.log.info(
    {
      url: server.url,
      database: server.database.kind,
      ...(server.database.kind === 'pglite' ? { dataDir: config.dataDir } : {}),
      ...(config.production ? {} : { demoLogins: demoAccounts.map((a) => a.account_id) }),
    },
    'fleet console started',
  );
  if (weakHashes)
    server.app.log.warn(
      { NODE_ENV: config.NODE_ENV },
      'NODE_ENV=test stores passwords at a weak scrypt cost: never use it in production',
    );
} else {
  const lines = ['', `  フリートコンソール: ${server.url}`, `  データベース: ${database}`];
  if (!config.production) {
    lines.push(`  デモ用ログイン（パスワードはすべて ${DEMO_PASSWORD}）:`);
    for (const a of demoAccounts) lines.push(`    ${a.account_id.padEnd(16)} ${a.label}`);
  }
  if (weakHashes)
    lines.push(
      `  注意: NODE_ENV=${config.NODE_ENV} はテスト用です（パスワードを弱い scrypt コストで保存します）。本番では使わないでください。`,
    );
  log.info({}, lines.join('\n') + '\n');
}
if (config.production && server.database.kind === 'pglite')
  server.app.log.warn(
    { dataDir: config.dataDir },
    'production on the embedded database (PGlite): one server process only (no replicas, no rolling restart), ' +
      'one statement at a time, backups only while stopped (`npm run fleet -- backup <file>`); ' +
      'move the data to PostgreSQL with `npm run fleet -- copy-to-postgres <url>` and set DATABASE_URL ' +
      '(README "Deploying")',
  );
