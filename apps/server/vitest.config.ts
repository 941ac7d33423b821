import { defineConfig } from 'vitest/config';

/**
 * Three projects: unit tests beside the source, and the API tests under test/
 * on PGlite, plus the same API tests on PostgreSQL when DATABASE_URL is set.
 * The database a project uses reaches its globalSetup and tests via `provide`.
 */
const databaseUrl = process.env.DATABASE_URL ?? '';

const apiProject = (name: string, url: string) => ({
  extends: true as const,
  test: {
    name,
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    // '' counts as unset for loadConfig, so nothing in a PGlite run reaches PostgreSQL.
    env: { DATABASE_URL: url },
    provide: { databaseUrl: url },
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});

export default defineConfig({
  test: {
    projects: [
      { extends: true, test: { name: 'unit', include: ['src/**/*.test.ts'], testTimeout: 30_000 } },
      apiProject('pglite', ''),
      ...(databaseUrl ? [apiProject('postgres', databaseUrl)] : []),
    ],
  },
});
