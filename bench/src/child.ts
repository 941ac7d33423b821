import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));

/**
 * Runs a bench client script (TypeScript, through tsx) in its own process; resolves with its last stdout line as JSON.
 * It resolves the workspace packages to their sources as the bench does (e.g. `@fleet/server/teltonika-device`).
 */
export function runClient<T>(script: string, args: unknown, onLine?: (line: string) => void): Promise<T> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--conditions=@fleet/source', '--import', 'tsx', path.join(here, 'clients', script), JSON.stringify(args)],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    // A client outlives no bench: if this process ends first (e.g. the other client of a pair failed), so does the client.
    const stop = () => child.kill();
    process.on('exit', stop);
    let out = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (d: string) => {
      out += d;
      if (onLine) for (const l of d.split('\n')) if (l.startsWith('#')) onLine(l);
    });
    child.on('error', reject);
    child.on('close', (code) => {
      process.off('exit', stop);
      const last = out
        .trim()
        .split('\n')
        .filter((l) => !l.startsWith('#'))
        .at(-1);
      if (code !== 0 || !last) return reject(new Error(`${script} exited with ${code}: ${out.slice(-500)}`));
      try {
        resolve(JSON.parse(last) as T);
      } catch (e) {
        reject(e);
      }
    });
  });
}
