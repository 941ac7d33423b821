// `npm run dev`: the server with reload on :3000 and Vite's dev server on :5173 (proxying /api).
import { spawn } from 'node:child_process';

const run = (args) => spawn('npm', args, { stdio: 'inherit', env: process.env });
const children = [run(['run', 'dev', '-w', 'apps/server']), run(['run', 'dev', '-w', 'apps/web'])];
const stop = () => children.forEach((c) => c.kill('SIGTERM'));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
for (const c of children)
  c.on('exit', (code) => {
    stop();
    process.exitCode = code ?? 0;
  });
