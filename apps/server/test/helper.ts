import { readFile } from 'node:fs/promises';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { expect, inject } from 'vitest';
import { buildApp, type LogStream } from '../src/app.js';
import { hashDeviceSecret } from '../src/credentials/device-secret.js';
import { loadConfig } from '../src/config.js';
import { openDatabase, type Database, type Db } from '../src/db/database.js';
import { adminQuery, dropDatabase, ident, uniqueDatabaseName, urlForDatabase } from './databases.js';
import { FIXTURE_PASSWORD, accounts, companyA, companyB, fleet, type FixtureAccount } from './fixture-data.js';

export * from './fixture-data.js';

export interface TestApp {
  app: FastifyInstance;
  db: Db;
  close(): Promise<void>;
}

/** A freshly migrated database of its own: a PGlite snapshot, or a copy of the PostgreSQL template. */
async function openTestDatabase(): Promise<Database> {
  const url = inject('databaseUrl');
  if (!url) {
    const dump = await readFile(inject('snapshotPath'));
    return openDatabase({ loadDataDir: new Blob([dump], { type: 'application/x-tar' }) });
  }
  const name = uniqueDatabaseName('fc_test');
  await adminQuery(url, `CREATE DATABASE ${ident(name)} TEMPLATE ${ident(inject('templateDatabase'))}`);
  const database = await openDatabase({ url: urlForDatabase(url, name), poolSize: 4 });
  return {
    ...database,
    close: async () => {
      await database.close();
      await dropDatabase(url, name);
    },
  };
}

export interface TestAppOptions {
  /** Environment on top of the tests' own (NODE_ENV=test, LOG_LEVEL=silent, the project's DATABASE_URL). */
  env?: Record<string, string>;
  /** Where log lines go; with it the logger is on (at env.LOG_LEVEL), without it off. */
  logStream?: LogStream;
}

/** The whole app (logger off unless a logStream is given) over a database of its own; call close() in afterAll. */
export async function createTestApp(opts: TestAppOptions = {}): Promise<TestApp> {
  const database = await openTestDatabase();
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATABASE_URL: inject('databaseUrl'),
    ...opts.env,
  });
  const app = await buildApp(
    opts.logStream
      ? { db: database.db, config, logStream: opts.logStream }
      : { db: database.db, config, logger: false },
  );
  await app.ready();
  return {
    app,
    db: database.db,
    close: async () => {
      await app.close();
      await database.close();
    },
  };
}

/** Inserts the fixture world; every account's password is FIXTURE_PASSWORD. */
export async function seedFixtures(db: Db): Promise<void> {
  const password_hash = inject('fixturePasswordHash');
  await db
    .insertInto('companies')
    .values([
      { company_id: companyA, company_name: '株式会社テストA' },
      { company_id: companyB, company_name: '株式会社テストB' },
    ])
    .execute();
  await db
    .insertInto('accounts')
    .values(Object.values(accounts).map((a) => ({ ...a, password_hash })))
    .execute();
  const entries = Object.values(fleet);
  await db
    .insertInto('car_users')
    .values(
      entries.map((f) => ({
        user_id: f.user_id,
        company_id: f.company_id,
        first_name: '顧客',
        name: f.user_id,
        birthday: null,
        gender: null,
      })),
    )
    .execute();
  await db
    .insertInto('devices')
    .values(
      entries.map((f) => ({
        car_device_id: f.car_device_id,
        car_data_id: f.car_data_id,
        password_hash: hashDeviceSecret('terminal-secret'),
      })),
    )
    .execute();
  await db
    .insertInto('cars')
    .values(
      entries.map((f) => ({
        car_id: f.car_id,
        company_id: f.company_id,
        user_id: f.user_id,
        car_device_id: f.car_device_id,
        car_data_id: f.car_data_id,
      })),
    )
    .execute();
}

/** POSTs JSON to an API call, with a bearer token when given. */
export function post(
  app: FastifyInstance,
  url: string,
  payload: unknown = {},
  token?: string,
): Promise<LightMyRequestResponse> {
  return app.inject({
    method: 'POST',
    url,
    payload: payload as object,
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
}

/** Signs a fixture account in through /api/login and returns its token. */
export async function login(
  app: FastifyInstance,
  who: FixtureAccount | string,
  password = FIXTURE_PASSWORD,
): Promise<string> {
  const username = who in accounts ? accounts[who as FixtureAccount].account_id : who;
  const res = await post(app, '/api/login', { username, password });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ token: string }>().token;
}
