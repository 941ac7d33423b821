import { readFileSync } from 'node:fs';
import path from 'node:path';
import { repoRoot } from '../config.js';

export interface BuildInfo {
  /** The product's version (the root package.json). */
  version: string;
  /** The git commit the server was built from (apps/server/scripts/build-info.mjs), or null when unknown. */
  commit: string | null;
}

const readJson = (file: string): Record<string, unknown> | undefined => {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  } catch {
    return undefined;
  }
};

let cached: BuildInfo | undefined;

/** Read once: neither changes while the process runs. */
export function buildInfo(): BuildInfo {
  cached ??= {
    version: String(readJson(path.join(repoRoot, 'package.json'))?.version ?? '0.0.0'),
    commit: (readJson(path.join(repoRoot, 'apps/server/dist/build-info.json'))?.commit as string | null) ?? null,
  };
  return cached;
}
