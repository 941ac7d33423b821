import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { TEST_HASH_LOG2N, hashPassword } from '../src/credentials/password.js';
import { migrate, openDatabase } from '../src/db/database.js';
import { adminQuery, dropDatabase, ident, uniqueDatabaseName, urlForDatabase } from './databases.js';
import { FIXTURE_PASSWORD } from './fixture-data.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** PostgreSQL server of this project; '' means PGlite. */
    databaseUrl: string;
    /** PGlite: a dump of a freshly migrated database. */
    snapshotPath: string;
    /** PostgreSQL: a freshly migrated database each test file copies. */
    templateDatabase: string;
    /** scrypt of FIXTURE_PASSWORD at the tests' cost (TEST_HASH_LOG2N), hashed once per run. */
    fixturePasswordHash: string;
  }
}

/** Migrates once per run, so each test file starts from a copy in well under a second. */
async function pgliteSnapshot(project: TestProject) {
  const dir = await mkdtemp(path.join(tmpdir(), 'fleet-test-'));
  const database = await openDatabase({});
  try {
    await migrate(database.db);
    const dump = await database.pglite!.dumpDataDir('none');
    const file = path.join(dir, 'migrated.tar');
    await writeFile(file, Buffer.from(await dump.arrayBuffer()));
    project.provide('snapshotPath', file);
  } finally {
    await database.close();
  }
  return () => rm(dir, { recursive: true, force: true });
}

async function postgresTemplate(project: TestProject, url: string) {
  const name = uniqueDatabaseName('fc_tpl');
  await adminQuery(url, `CREATE DATABASE ${ident(name)}`);
  try {
    const database = await openDatabase({ url: urlForDatabase(url, name), poolSize: 1 });
    // A template must have no open connections when it is copied: close before use.
    await migrate(database.db).finally(() => database.close());
  } catch (err) {
    await dropDatabase(url, name);
    throw err;
  }
  project.provide('templateDatabase', name);
  return () => dropDatabase(url, name);
}

export default async function setup(project: TestProject) {
  const url = project.getProvidedContext().databaseUrl;
  const [hash, teardown] = await Promise.all([
    hashPassword(FIXTURE_PASSWORD, TEST_HASH_LOG2N),
    url ? postgresTemplate(project, url) : pgliteSnapshot(project),
  ]);
  project.provide('fixturePasswordHash', hash);
  return teardown;
}
