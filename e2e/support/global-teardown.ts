import { existsSync, readFileSync, rmSync } from 'node:fs';
import { stopE2eServer } from './server';
import { stateFile } from './global-setup';

export default async function globalTeardown() {
  if (!existsSync(stateFile)) return;
  await stopE2eServer(JSON.parse(readFileSync(stateFile, 'utf8')) as { pid?: number; dataDir?: string });
  rmSync(stateFile, { force: true });
}
