import { loadConfig } from './config.js';
import { HASH_PARAMS } from './credentials/password.js';
import { DEMO_PASSWORD, demoAccounts } from './seed/demo-data.js';
import { startServer } from './server.js';

const config = loadConfig();
const server = await startServer(config);

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

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    server.stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  });
}
