import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

/** The repository root, so `./data` means the same folder whichever workspace npm runs in. */
export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

const flag = z.enum(['0', '1', 'true', 'false']).transform((v) => v === '1' || v === 'true');

const ConfigSchema = z.object({
  NODE_ENV: z.string().default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('localhost'),
  DATABASE_URL: z.url().optional(),
  DATA_DIR: z.string().min(1).default('data'),
  SMTP_URL: z.url().optional(),
  MAIL_FROM: z.string().min(3).default('フリートコンソール <no-reply@localhost>'),
  PUBLIC_URL: z.url().optional(),
  TILE_URL: z.string().default('https://tile.openstreetmap.org/{z}/{x}/{y}.png'),
  SIMULATE: flag.default(true),
  TRUST_PROXY: flag.default(false),
  SESSION_IDLE_MINUTES: z.coerce.number().int().min(1).max(24 * 60).default(120),
  SESSION_MAX_HOURS: z.coerce.number().int().min(1).max(24 * 30).default(12),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

export type Config = z.output<typeof ConfigSchema> & {
  production: boolean;
  dataDir: string;
  publicUrl: string;
};

/** Parses the environment once at start-up and fails loudly with every problem listed. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const blankToUndefined = Object.fromEntries(
    Object.entries(env).map(([k, v]) => [k, v === '' ? undefined : v]),
  );
  const parsed = ConfigSchema.safeParse(blankToUndefined);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const c = parsed.data;
  const base = env.INIT_CWD ?? repoRoot;
  return {
    ...c,
    production: c.NODE_ENV === 'production',
    dataDir: path.resolve(base, c.DATA_DIR),
    publicUrl: (c.PUBLIC_URL ?? `http://localhost:${c.PORT}`).replace(/\/$/, ''),
  };
}
