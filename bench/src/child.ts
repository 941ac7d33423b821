import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));

/** Lines to a client's standard input (a client that reads them waits for them). */
export interface ClientInput {
  say(line: string): void;
  end(): void;
}

/**
 * Runs a bench client script (TypeScript, through tsx) in its own process; resolves with its last stdout line as JSON.
 * It resolves the workspace packages to their sources as the bench does (e.g. `@fleet/server/teltonika-device`).
 * Lines it prints starting with '#' are told to `onLine` as they come, with a way to answer it.
 */
export function runClient<T>(
  script: string,
  args: unknown,
  onLine?: (line: string, input: ClientInput) => void,
): Promise<T> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--conditions=@fleet/source', '--import', 'tsx', path.join(here, 'clients', script), JSON.stringify(args)],
      {
        stdio: ['pipe', 'pipe', 'inherit'],
      },
    );
    const input: ClientInput = {
      say: (line) => void child.stdin.write(`${line}\n`),
      end: () => void child.stdin.end(),
    };
    child.stdin.on('error', () => undefined); // a client that has ended reads nothing
    // A client outlives no bench: if this process ends first (e.g. the other client of a pair failed), so does the client.
    const stop = () => child.kill();
    process.on('exit', stop);
    let out = '';
    let partial = ''; // a line the last chunk ended inside of
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (d: string) => {
      out += d;
      if (!onLine) return;
      const lines = (partial + d).split('\n');
      partial = lines.pop()!;
      for (const l of lines) if (l.startsWith('#')) onLine(l, input);
    });
    child.on('error', reject);
    child.on('close', (code) => {
      process.off('exit', stop);
      input.end();
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
