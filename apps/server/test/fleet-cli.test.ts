import { existsSync, statSync, writeFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { carGetEngineLog, carGetGpsLog } from '@fleet/contract';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { sql } from 'kysely';
import { buildApp } from '../src/app.js';
import { EXIT_FAILED, EXIT_OK, EXIT_USAGE, runFleet } from '../src/cli/fleet.js';
import { verifyPassword } from '../src/credentials/password.js';
import { LOCK_FILE } from '../src/db/data-dir-lock.js';
import { knownMigrations, migrate, openDatabase } from '../src/db/database.js';
import { loadConfig } from '../src/config.js';
import { buildInfo } from '../src/ops/version.js';
import { createLogPartition } from '../src/telemetry/partitions.repository.js';
import { adminQuery, dropDatabase, ident, uniqueDatabaseName, urlForDatabase } from './databases.js';
import { callAs, fleet as fixtureFleet, login, seedFixtures } from './helper.js';

/** `npm run fleet -- …` as a script calls it: arguments, piped stdin, the exit code and both streams. */
async function fleet(argv: string[], env: Record<string, string>, stdin = '') {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (c: Buffer) => (out += c.toString()));
  stderr.on('data', (c: Buffer) => (err += c.toString()));
  const code = await runFleet(argv, {
    stdout,
    stderr,
    stdin: Readable.from([stdin]),
    env: { ...process.env, NODE_ENV: 'test', ...env },
  });
  return { code, out, err };
}

const databaseUrl = inject('databaseUrl');
const PASSWORD = 'cli-pass-2026-strong';
const NEW_PASSWORD = 'cli-pass-2026-renewed';
const dirs: string[] = [];
const databases: string[] = [];
const tempDir = async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'fleet-cli-'));
  dirs.push(dir);
  return dir;
};
/** The project's database, empty (PostgreSQL: a new database; PGlite: a new folder). */
async function emptyDatabaseEnv(): Promise<Record<string, string>> {
  if (!databaseUrl) return { DATABASE_URL: '', DATA_DIR: path.join(await tempDir(), 'data') };
  const name = uniqueDatabaseName('fc_cli');
  await adminQuery(databaseUrl, `CREATE DATABASE ${ident(name)}`);
  databases.push(name);
  return { DATABASE_URL: urlForDatabase(databaseUrl, name) };
}
/** The project's database, migrated. */
async function migratedDatabaseEnv(): Promise<Record<string, string>> {
  if (!databaseUrl) {
    const dataDir = path.join(await tempDir(), 'data');
    const database = await openDatabase({ dataDir, loadDataDir: new Blob([await readFile(inject('snapshotPath'))]) });
    await database.close();
    return { DATABASE_URL: '', DATA_DIR: dataDir };
  }
  const name = uniqueDatabaseName('fc_cli');
  await adminQuery(databaseUrl, `CREATE DATABASE ${ident(name)} TEMPLATE ${ident(inject('templateDatabase'))}`);
  databases.push(name);
  return { DATABASE_URL: urlForDatabase(databaseUrl, name) };
}
const passwordHashOf = async (env: Record<string, string>, id: string) => {
  const database = await openDatabase({ url: env.DATABASE_URL || undefined, dataDir: env.DATA_DIR });
  try {
    const row = await database.db
      .selectFrom('accounts')
      .select(['password_hash', 'role'])
      .where('account_id', '=', id)
      .executeTakeFirst();
    return row;
  } finally {
    await database.close();
  }
};

afterAll(async () => {
  for (const name of databases) await dropDatabase(databaseUrl, name);
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

describe('npm run fleet', () => {
  it('without a command, or an unknown one: usage (2); --help: the list in Japanese and English (0)', async () => {
    const none = await fleet([], {});
    expect(none.code).toBe(EXIT_USAGE);
    expect(none.err).toContain('使い方');
    const unknown = await fleet(['frobnicate'], {});
    expect(unknown.code).toBe(EXIT_USAGE);
    expect(unknown.err).toContain('unknown command: frobnicate');
    const help = await fleet(['--help'], {});
    expect(help.code).toBe(EXIT_OK);
    for (const name of [
      'create-admin',
      'reset-password',
      'migrate',
      'backup',
      'restore',
      'copy-to-postgres',
      'version',
    ])
      expect(help.out).toContain(name);
  });

  it.each(['create-admin', 'reset-password', 'migrate', 'backup', 'restore', 'copy-to-postgres', 'version'])(
    '%s --help: Japanese and English, exit 0',
    async (name) => {
      const { code, out } = await fleet([name, '--help'], {});
      expect(code).toBe(EXIT_OK);
      expect(out).toContain('使い方');
      expect(out).toContain('Usage:');
    },
  );

  it('version: the package version and the build commit', async () => {
    const { code, out } = await fleet(['version'], {});
    expect(code).toBe(EXIT_OK);
    const { version, commit } = buildInfo();
    expect(out.trim()).toBe(commit ? `${version} (${commit})` : version);
  });

  it('migrate: applies every migration to an empty database and exits; a second run applies none', async () => {
    const env = await emptyDatabaseEnv();
    const first = await fleet(['migrate'], env);
    expect(first.err).toBe('');
    expect(first.code).toBe(EXIT_OK);
    expect(first.out).toContain(`${knownMigrations.length} migrations applied`);
    const second = await fleet(['migrate'], env);
    expect(second.code).toBe(EXIT_OK);
    expect(second.out).toContain('0 migrations applied');
  });

  it('create-admin: the password from stdin, never an argument; a taken ID fails (1)', async () => {
    const env = await migratedDatabaseEnv();
    const refused = await fleet(
      ['create-admin', '--id', 'cliadmin', '--email', 'cli@example.com', '--password', 'x'],
      env,
    );
    expect(refused.code).toBe(EXIT_USAGE);
    expect(refused.err).toContain('--password is not accepted');
    expect(await passwordHashOf(env, 'cliadmin')).toBeUndefined();

    const badEmail = await fleet(['create-admin', '--id', 'cliadmin', '--email', 'nope'], env, `${PASSWORD}\n`);
    expect(badEmail.code).toBe(EXIT_USAGE);

    const weak = await fleet(['create-admin', '--id', 'cliadmin', '--email', 'cli@example.com'], env, 'x\n');
    expect(weak.code).toBe(EXIT_FAILED);
    expect(await passwordHashOf(env, 'cliadmin')).toBeUndefined();

    const made = await fleet(['create-admin', '--id', 'cliadmin', '--email', 'cli@example.com'], env, `${PASSWORD}\n`);
    expect(made.err).toBe('');
    expect(made.code).toBe(EXIT_OK);
    const row = await passwordHashOf(env, 'cliadmin');
    expect(row?.role).toBe(0);
    expect(await verifyPassword(PASSWORD, row?.password_hash)).toBe(true);

    const again = await fleet(
      ['create-admin', '--id', 'cliadmin', '--email', 'other@example.com'],
      env,
      `${PASSWORD}\n`,
    );
    expect(again.code).toBe(EXIT_FAILED);

    const reset = await fleet(['reset-password', '--id', 'cliadmin'], env, `${NEW_PASSWORD}\n`);
    expect(reset.code).toBe(EXIT_OK);
    expect(await verifyPassword(NEW_PASSWORD, (await passwordHashOf(env, 'cliadmin'))?.password_hash)).toBe(true);
    expect((await fleet(['reset-password', '--id', 'nobody'], env, `${NEW_PASSWORD}\n`)).code).toBe(EXIT_FAILED);
    expect((await fleet(['reset-password'], env, `${NEW_PASSWORD}\n`)).code).toBe(EXIT_USAGE);
    // Each command opens the database anew: on PGlite a start of the embedded PostgreSQL each time.
  }, 300_000);

  it.runIf(!databaseUrl)(
    'backup and restore: refused while the server holds the folder; a round trip keeps the data',
    async () => {
      const env = await migratedDatabaseEnv();
      const dataDir = env.DATA_DIR!;
      expect(
        (await fleet(['create-admin', '--id', 'kept', '--email', 'kept@example.com'], env, `${PASSWORD}\n`)).code,
      ).toBe(EXIT_OK);
      const file = path.join(await tempDir(), 'fleet.tar.gz');

      // A running server marks the folder with its pid (here: this test's parent process, which is alive).
      writeFileSync(path.join(dataDir, LOCK_FILE), `${process.ppid}\n`);
      const held = await fleet(['backup', file], env);
      expect(held.code).toBe(EXIT_FAILED);
      expect(held.err).toContain('stop the server first');
      expect(existsSync(file)).toBe(false);
      // A mark left by a crashed server (a pid no longer running) does not block.
      writeFileSync(path.join(dataDir, LOCK_FILE), '2147483646\n');

      const saved = await fleet(['backup', file], env);
      expect(saved.err).toBe('');
      expect(saved.code).toBe(EXIT_OK);
      expect(statSync(file).size).toBeGreaterThan(0);
      expect((await fleet(['backup'], env)).code).toBe(EXIT_USAGE);

      const notEmpty = await fleet(['restore', file], env);
      expect(notEmpty.code).toBe(EXIT_FAILED);
      expect(notEmpty.err).toContain('is not empty');

      const target = { DATABASE_URL: '', DATA_DIR: path.join(await tempDir(), 'restored') };
      const restored = await fleet(['restore', file], target);
      expect(restored.err).toBe('');
      expect(restored.code).toBe(EXIT_OK);
      expect(await verifyPassword(PASSWORD, (await passwordHashOf(target, 'kept'))?.password_hash)).toBe(true);
      expect((await fleet(['restore', path.join(dataDir, 'missing.tar.gz')], target)).code).toBe(EXIT_FAILED);
    },
    300_000,
  );

  it.runIf(!!databaseUrl)('backup and restore on PostgreSQL: refused, naming pg_dump (1)', async () => {
    const env = await migratedDatabaseEnv();
    const result = await fleet(['backup', path.join(await tempDir(), 'x.tar.gz')], env);
    expect(result.code).toBe(EXIT_FAILED);
    expect(result.err).toContain('pg_dump');
  });

  it.runIf(!!databaseUrl)(
    'copy-to-postgres: a seeded embedded database with telemetry into an empty PostgreSQL, then sign in and read the logs there',
    async () => {
      // The source: the fixture world and two days of telemetry, one in a day partition of its own.
      const dataDir = path.join(await tempDir(), 'data');
      {
        // The PostgreSQL project has no PGlite snapshot: migrated here.
        const database = await openDatabase({ dataDir });
        try {
          await migrate(database.db);
          await seedFixtures(database.db);
          await createLogPartition(database.db, 'gps_logs', new Date('2026-01-15T00:00:00Z'));
          const imei = fixtureFleet.A.car_data_id;
          await database.db
            .insertInto('gps_logs')
            .values(
              Array.from({ length: 50 }, (_, i) => ({
                car_data_id: imei,
                recorded_at: new Date(Date.parse('2026-01-15T03:00:00Z') + i * 60_000),
                lat: 35.68 + i / 1000,
                lng: 139.76,
                speed: i,
              })),
            )
            .execute();
          await database.db
            .insertInto('gps_logs')
            .values({ car_data_id: imei, recorded_at: new Date('2025-06-01T00:00:00Z'), lat: 35, lng: 139 })
            .execute();
          await database.db
            .insertInto('engine_logs')
            .values({ car_data_id: imei, recorded_at: new Date('2026-01-15T03:10:00Z'), running: 'on' })
            .execute();
        } finally {
          await database.close();
        }
      }
      const env = { DATABASE_URL: '', DATA_DIR: dataDir };
      const name = uniqueDatabaseName('fc_copy');
      await adminQuery(databaseUrl, `CREATE DATABASE ${ident(name)}`);
      databases.push(name);
      const url = urlForDatabase(databaseUrl, name);

      expect((await fleet(['copy-to-postgres', 'mysql://x'], env)).code).toBe(EXIT_USAGE);
      const copied = await fleet(['copy-to-postgres', url], env);
      expect(copied.err).toBe('');
      expect(copied.code).toBe(EXIT_OK);
      expect(copied.out).toMatch(/^gps_logs\t51$/m);
      expect(copied.out).toMatch(/^engine_logs\t1$/m);
      expect(copied.out).toContain('counts checked');

      // Copying again: the target now holds data and is refused, unchanged.
      const again = await fleet(['copy-to-postgres', url], env);
      expect(again.code).toBe(EXIT_FAILED);
      expect(again.err).toContain('The target database is not empty');
      expect(again.err).toContain('accounts');

      const target = await openDatabase({ url, poolSize: 2 });
      const app = await buildApp({
        db: target.db,
        config: loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DATABASE_URL: url }),
        logger: false,
      });
      try {
        await app.ready();
        const token = await login(app, 'staffA');
        const imei = fixtureFleet.A.car_data_id;
        const route = await callAs(app, token, carGetGpsLog, { car_data_id: imei, from: '', to: '' });
        expect(route.status, route.raw.body).toBe(200);
        expect(route.body.total).toBe(51);
        const engine = await callAs(app, token, carGetEngineLog, { car_data_id: imei });
        expect(engine.body.list.map((r) => r.running)).toEqual(['on']);
        // The day partition came along; the sequences continue after the copied ids.
        const { rows } = await sql<{
          part: string | null;
        }>`SELECT to_regclass('gps_logs_p20260115')::text AS part`.execute(target.db);
        expect(rows[0]?.part).toBe('gps_logs_p20260115');
        const next = await target.db
          .insertInto('gps_logs')
          .values({ car_data_id: imei, recorded_at: new Date(), lat: 35, lng: 139 })
          .returning('id')
          .executeTakeFirstOrThrow();
        const max = await target.db
          .selectFrom('gps_logs')
          .select((eb) => eb.fn.max('id').as('id'))
          .where('id', '<>', next.id)
          .executeTakeFirstOrThrow();
        expect(Number(next.id)).toBeGreaterThan(Number(max.id));
      } finally {
        await app.close();
        await target.close();
      }
    },
    300_000,
  );
});
