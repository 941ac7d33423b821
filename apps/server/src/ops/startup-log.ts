import { hostname } from 'node:os';
import type { Writable } from 'node:stream';

/**
 * Log lines written before the server's own logger exists (start-up, a configuration that does not parse)
 * or beside it (the banner). Under LOG_FORMAT=json they are pino's lines (level number, `time` in epoch
 * milliseconds, pid, hostname, msg), so every line of stdout is one JSON object a collector can read;
 * otherwise readable text.
 */
export interface StartupLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  fatal(obj: object, msg: string): void;
}

const LEVELS = { trace: 10, debug: 20, info: 30, warn: 40, error: 50, fatal: 60, silent: Infinity } as const;
type Level = keyof typeof LEVELS;

/** The format a configuration would choose, read straight from the environment (for a configuration that failed). */
export const formatFromEnv = (env: NodeJS.ProcessEnv): 'pretty' | 'json' =>
  env.LOG_FORMAT === 'json' || (env.LOG_FORMAT !== 'pretty' && env.NODE_ENV === 'production') ? 'json' : 'pretty';

const serialise = (value: unknown): unknown =>
  value instanceof Error ? { type: value.name, message: value.message, stack: value.stack } : value;

export function startupLog(
  format: 'pretty' | 'json',
  level: string = 'info',
  out: Writable = process.stdout,
  err: Writable = process.stderr,
): StartupLog {
  const least = LEVELS[level as Level] ?? LEVELS.info;
  const write = (name: Exclude<Level, 'silent'>, obj: object, msg: string) => {
    if (LEVELS[name] < least) return;
    if (format === 'json') {
      const fields = Object.fromEntries(Object.entries(obj).map(([k, v]) => [k, serialise(v)]));
      out.write(
        `${JSON.stringify({ level: LEVELS[name], time: Date.now(), pid: process.pid, hostname: hostname(), ...fields, msg })}\n`,
      );
      return;
    }
    const error = (obj as { err?: unknown }).err;
    const detail = error instanceof Error ? `\n${error.message}` : '';
    (name === 'fatal' ? err : out).write(`  ${msg}${detail}\n`);
  };
  return {
    info: (obj, msg) => write('info', obj, msg),
    warn: (obj, msg) => write('warn', obj, msg),
    fatal: (obj, msg) => write('fatal', obj, msg),
  };
}
