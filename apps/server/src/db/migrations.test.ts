import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { migrations } from './migrations/index.js';

const files = readdirSync(fileURLToPath(new URL('./migrations/', import.meta.url)))
  .filter((f) => /\.ts$/.test(f) && f !== 'index.ts')
  .sort();

/**
 * Two migrations were applied under one timestamp before this check existed. Their names stay (a renamed
 * applied migration reads to the migrator as one missing and one new), so only they may share it.
 */
const APPLIED_TWINS = new Set(['2026_11_27_090000_list_sort_keys.ts', '2026_11_27_090000_terminal_periods.ts']);

describe('migration files', () => {
  it('are named <YYYY_MM_DD_HHmmss>_<snake_name>.ts', () => {
    expect(files.length).toBeGreaterThan(0);
    expect(files.filter((f) => !/^\d{4}_\d{2}_\d{2}_\d{6}_[a-z0-9]+(_[a-z0-9]+)*\.ts$/.test(f))).toEqual([]);
  });

  it('are each listed in migrations/index.ts under their own name, in order (a file left out would never run)', () => {
    expect(Object.keys(migrations)).toEqual(files.map((f) => f.replace(/\.ts$/, '')));
  });

  it('each have a timestamp of their own (new migrations get the next free one)', () => {
    const byStamp = new Map<string, string[]>();
    for (const f of files) byStamp.set(f.slice(0, 17), [...(byStamp.get(f.slice(0, 17)) ?? []), f]);
    const shared = [...byStamp.values()].filter((names) => names.length > 1).flat();
    expect(shared.filter((f) => !APPLIED_TWINS.has(f))).toEqual([]);
  });
});
