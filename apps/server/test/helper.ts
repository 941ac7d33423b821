import { readFile } from 'node:fs/promises';
import { ApiError, login as loginCall, type Call, type CallRequest, type CallResponse } from '@fleet/contract';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { expect, inject } from 'vitest';
import { buildApp, type LogStream } from '../src/app.js';
import { hashDeviceSecret } from '../src/credentials/device-secret.js';
import { loadConfig, type Config } from '../src/config.js';
import { openDatabase, type Database, type Db } from '../src/db/database.js';
import { setAccountGroups } from '../src/groups/groups.repository.js';
import { sessionsChanged } from '../src/sessions/session-cache.js';
import { adminQuery, dropDatabase, ident, uniqueDatabaseName, urlForDatabase } from './databases.js';
import { FIXTURE_PASSWORD, accounts, companyA, companyB, fleet, type FixtureAccount } from './fixture-data.js';

export * from './fixture-data.js';

export interface TestApp {
  app: FastifyInstance;
  db: Db;
  /** The configuration the app was built with (NODE_ENV=test unless opts.env says otherwise). */
  config: Config;
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
  /** A built console to serve (static files and the SPA fallback). */
  webRoot?: string;
}

/** The whole app (logger off unless a logStream is given) over a database of its own; call close() in afterAll. */
export async function createTestApp(opts: TestAppOptions = {}): Promise<TestApp> {
  const database = await openTestDatabase();
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATABASE_URL: inject('databaseUrl'),
    // The push service the tests' subscriptions name (push.test.ts's local endpoint is allowed there).
    PUSH_SERVICE_HOSTS: 'push.example.jp',
    // Tests never reach GSI: geocode.test.ts points these at a local stub of its services.
    REVERSE_GEOCODER_URL: 'off',
    ADDRESS_SEARCH_URL: 'off',
    ...opts.env,
  });
  const app = await buildApp({
    ...(opts.logStream
      ? { db: database.db, config, logStream: opts.logStream }
      : { db: database.db, config, logger: false }),
    ...(opts.webRoot ? { webRoot: opts.webRoot } : {}),
  });
  await app.ready();
  return {
    app,
    db: database.db,
    config,
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

/** A test app over the fixture world (seedFixtures) with these accounts signed in, their tokens by name. */
export interface SignedInApp extends TestApp {
  tokens: Record<FixtureAccount, string>;
  /** callAs as a signed-in fixture account (none: signed out). */
  call<C extends Call>(call: C, body: NoInfer<CallRequest<C>>, who?: FixtureAccount): Promise<CallOutcome<C>>;
}

/** createTestApp + seedFixtures + login of `who` (every fixture account by default): the usual set-up. */
export async function createSignedInApp(
  who: readonly FixtureAccount[] = Object.keys(accounts) as FixtureAccount[],
  opts: TestAppOptions = {},
): Promise<SignedInApp> {
  const t = await createTestApp(opts);
  await seedFixtures(t.db);
  const tokens = {} as Record<FixtureAccount, string>;
  for (const w of who) tokens[w] = await login(t.app, w);
  return { ...t, tokens, call: (call, body, w) => callAs(t.app, w && tokens[w], call, body) };
}

/** The answer to one call: its status, and the body as the contract reads it (the web parses it so). */
export interface CallOutcome<C extends Call> {
  status: number;
  /** The response parsed by the call's response schema; throws unless the status is 2xx. */
  readonly body: CallResponse<C>;
  /** The error (ApiError: code, Japanese message, per-field errors); throws unless the status is 4xx/5xx. */
  readonly error: ApiError;
  raw: LightMyRequestResponse;
}

/** A body the contract would refuse, sent on purpose (validation tests): callAs does not type-check it. */
export const unchecked = (body: unknown): never => body as never;

/**
 * Calls an API call of the contract as the holder of `token` (undefined: signed out): the path
 * comes from the Call, the body is type-checked against its request (unchecked() for invalid
 * input) and the result is typed as its response.
 */
export async function callAs<C extends Call>(
  app: FastifyInstance,
  token: string | undefined,
  call: C,
  body?: NoInfer<CallRequest<C>>,
): Promise<CallOutcome<C>> {
  return outcomeOf(call, await post(app, call.path, body ?? {}, token));
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
  const res = await callAs(app, undefined, loginCall, { username, password });
  expect(res.status, res.raw.body).toBe(200);
  return res.body.token;
}

/** A call and its body, type-checked together: a row of a table of different calls. */
export interface CallWith {
  call: Call;
  send(app: FastifyInstance, token?: string): Promise<CallOutcome<Call>>;
}

/** Pairs a call with its body (the body checked against the call's request) for a table of calls. */
export const callWith = <C extends Call>(call: C, body: NoInfer<CallRequest<C>>): CallWith => ({
  call,
  send: (app, token) => callAs(app, token, call, body),
});

/** More of the request than callAs sends: the client's address (the limits count per IP), extra headers. */
export interface CallRequestOptions {
  remoteAddress?: string;
  headers?: Record<string, string>;
}

/** The outcome of a raw answer to a call: its status, the body as the contract reads it, or the error. */
export function outcomeOf<C extends Call>(call: C, raw: LightMyRequestResponse): CallOutcome<C> {
  const status = raw.statusCode;
  const ok = status >= 200 && status < 300;
  const fail = (wanted: string): never => {
    throw new Error(`${call.path}: expected ${wanted}, got ${status}: ${raw.body.slice(0, 500)}`);
  };
  return {
    status,
    raw,
    get body() {
      return ok ? (call.response.parse(raw.json()) as CallResponse<C>) : fail('2xx');
    },
    get error() {
      return ok ? fail('an error') : ApiError.parse(raw.json());
    },
  };
}

/** callAs from a given client address and/or with extra headers. */
export async function callAsFrom<C extends Call>(
  app: FastifyInstance,
  token: string | undefined,
  call: C,
  body: NoInfer<CallRequest<C>>,
  { remoteAddress, headers = {} }: CallRequestOptions,
): Promise<CallOutcome<C>> {
  const raw = await app.inject({
    method: 'POST',
    url: call.path,
    payload: body as object,
    ...(remoteAddress ? { remoteAddress } : {}),
    headers: token ? { ...headers, authorization: `Bearer ${token}` } : headers,
  });
  return outcomeOf(call, raw);
}

/**
 * Runs `fn` with the account limited to these groups (docs/groups.md), as account_groups_update would leave
 * it, and lifts the limit afterwards whatever happens; its sessions are told both times.
 */
export async function withGroupLimit(db: Db, accountId: string, groupIds: readonly string[], fn: () => Promise<void>) {
  await setAccountGroups(db, accountId, groupIds);
  await sessionsChanged(db, { accountId });
  try {
    await fn();
  } finally {
    await setAccountGroups(db, accountId, null);
    await sessionsChanged(db, { accountId });
  }
}
