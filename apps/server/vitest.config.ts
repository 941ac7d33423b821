import { defaultServerConditions } from 'vite';
import { defineConfig } from 'vitest/config';

/**
 * Projects: unit tests beside the source, the API tests under test/ on PGlite,
 * the same API tests on PostgreSQL when DATABASE_URL is set, and the fault
 * tests, which start a private PostgreSQL cluster of their own.
 * The database a project uses reaches its globalSetup and tests via `provide`.
 */
const databaseUrl = process.env.DATABASE_URL ?? '';

const apiProject = (name: string, url: string) => ({
  extends: true as const,
  test: {
    name,
    include: ['test/**/*.test.ts'],
    // Each file builds its own app over its own database, and no API test mocks a module: the files of a
    // worker share one import of the server (2.3 s a file otherwise; the PGlite project 407 -> 297 s).
    isolate: false,
    // The fault tests start a PostgreSQL of their own: once per run, in the faults project.
    exclude: ['test/security/faults/**'],
    globalSetup: ['test/global-setup.ts'],
    // '' counts as unset for loadConfig, so nothing in a PGlite run reaches PostgreSQL.
    env: { DATABASE_URL: url },
    provide: { databaseUrl: url },
    // Generous: a full-cost scrypt (sign-in, password change) takes ~0.6 s alone and many times that on a loaded machine.
    testTimeout: 90_000,
    hookTimeout: 180_000,
  },
});

export default defineConfig({
  // Tests run on the TypeScript sources of the workspace packages (their `@fleet/source` export condition).
  resolve: { conditions: ['@fleet/source', ...defaultServerConditions] },
  ssr: {
    resolve: { conditions: ['@fleet/source', ...defaultServerConditions], externalConditions: ['@fleet/source'] },
  },
  test: {
    // Vitest's default is one worker per core but one: on a 2-core CI machine that runs every file
    // in turn, while most of a file's time is spent waiting on PostgreSQL, scrypt or a server process.
    maxWorkers: 2,
    projects: [
      { extends: true, test: { name: 'unit', include: ['src/**/*.test.ts'], testTimeout: 30_000 } },
      apiProject('pglite', ''),
      {
        extends: true,
        test: {
          name: 'faults',
          include: ['test/security/faults/**/*.test.ts'],
          testTimeout: 180_000,
          hookTimeout: 120_000,
        },
      },
      ...(databaseUrl ? [apiProject('postgres', databaseUrl)] : []),
    ],
  },
});
