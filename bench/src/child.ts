import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));

/** Runs a bench client script (TypeScript, through tsx) in its own process; resolves with its last stdout line as JSON. */
export function runClient<T>(script: string, args: unknown, onLine?: (line: string) => void): Promise<T> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(here, 'clients', script), JSON.stringify(args)], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (d: string) => {
      out += d;
      if (onLine) for (const l of d.split('\n')) if (l.startsWith('#')) onLine(l);
    });
    child.on('error', reject);
    child.on('close', (code) => {
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
