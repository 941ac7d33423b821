import { randomBytes } from 'node:crypto';
import { ApiError } from '@fleet/contract';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { sql } from 'kysely';
import { expect, inject } from 'vitest';
import { hashDeviceSecret } from '../../src/credentials/device-secret.js';
import { createSession } from '../../src/sessions/session.repository.js';
import { hashToken } from '../../src/sessions/token.js';
import type { Db } from '../../src/db/database.js';
import { reserveCommand } from '../../src/commands/terminal-commands.repository.js';
import { createResetToken } from '../../src/password-reset/password-reset.repository.js';
import { accounts, companyA, companyB, createTestApp, fleet, seedFixtures, type TestApp } from '../helper.js';

/**
 * The world of the security suite: the fixture companies A and B with one
 * account of each role (company A), factories for fresh records of either
 * company, tokens, the error-shape check and a checksum of the stored data.
 */
export const roles = ['anonymous', 'superAdmin', 'adminA', 'managerA', 'staffA', 'operatorA'] as const;
export type Role = (typeof roles)[number];
export type SignedInRole = Exclude<Role, 'anonymous'>;
/** "own": a record of company A (the company of the adminA, managerA, staffA and operatorA accounts); "other": of company B. */
export type Target = 'own' | 'other';
export const targets: readonly Target[] = ['own', 'other'];
export const companyOf: Record<Target, string> = { own: companyA, other: companyB };
export const fixtureOf = (target: Target) => (target === 'own' ? fleet.A : fleet.B);

/** Extra accounts: a common user in each company, so "another account" never means "a higher role". */
export const extraAccounts = {
  staffA2: { account_id: 'staff-a2', name: '一般 四郎', email: 'staff-a2@example.jp', role: 2, company_id: companyA },
  staffB: { account_id: 'staff-b', name: '別社 五郎', email: 'staff-b@example.jp', role: 2, company_id: companyB },
  /** A common user given the engine-control right (エンジン制御権限), which role 2 lacks by default. */
  operatorA: {
    account_id: 'operator-a',
    name: '運行 六郎',
    email: 'operator-a@example.jp',
    role: 2,
    company_id: companyA,
    engine_control: true,
  },
} as const;
export const otherAccountOf = (target: Target) =>
  (target === 'own' ? extraAccounts.staffA2 : extraAccounts.staffB).account_id;
export const templateOf = (target: Target) => (target === 'own' ? 'tpl-a' : 'tpl-b');

/**
 * Whatever identifies company B: its fixture records, and every fresh record
 * made for it (ids with 'OTHERCO', IMEIs starting 3584093). A company-A user's
 * successful answer containing any of these is a leak.
 */
export const COMPANY_B_MARKERS =
  /company-b|car-b|user-b|device-b|admin-b|staff-b|tpl-b|358409100000002|株式会社テストB|B社テンプレート|OTHERCO|3584093\d{8}/;

const LIFETIMES = { idleMinutes: 120, maxHours: 12 };
export const AREA = { name: '本社周辺', lat_min: 35.6, lat_max: 35.7, lng_min: 139.7, lng_max: 139.8 };
export const NEW_PASSWORD = 'new-pass-2026';

let counter = 0;
/** A unique id; records of company B carry 'OTHERCO' so the leak check recognises them (no random token will). */
export const freshId = (prefix: string, target: Target = 'own') =>
  `${prefix}${target === 'own' ? 'OwnCo' : 'OTHERCO'}${++counter}${randomBytes(2).toString('hex')}`;
/** A unique 15-digit IMEI: 3584092… for company A, 3584093… for company B. */
export const freshImei = (target: Target = 'own') =>
  `358409${target === 'own' ? 2 : 3}${String(++counter).padStart(8, '0')}`;

export interface World {
  t: TestApp;
  app: FastifyInstance;
  db: Db;
  tokens: Record<SignedInRole, string>;
  /** A new session for a role, e.g. for a call that ends it; stepped up like `tokens`. */
  freshToken(role: SignedInRole): Promise<string>;
  /** A new session that has not re-entered its password (no step-up before a prohibit). */
  plainToken(role: SignedInRole): Promise<string>;
  fresh: ReturnType<typeof factories>;
}

export const accountIdOf = (role: SignedInRole) =>
  (role === 'operatorA' ? extraAccounts.operatorA : accounts[role]).account_id;

function factories(db: Db) {
  const f = {
    company: async (target: Target = 'own') => {
      const company_id = freshId('co', target);
      await db
        .insertInto('companies')
        .values({ company_id, company_name: `会社${company_id}` })
        .execute();
      return company_id;
    },
    user: async (target: Target) => {
      const user_id = freshId('us', target);
      await db
        .insertInto('car_users')
        .values({
          user_id,
          company_id: companyOf[target],
          first_name: '顧客',
          name: user_id,
          birthday: null,
          gender: null,
        })
        .execute();
      return user_id;
    },
    device: async (target: Target = 'own') => {
      const car_device_id = freshId('dv', target);
      const car_data_id = freshImei(target);
      await db
        .insertInto('devices')
        .values({ car_device_id, car_data_id, password_hash: hashDeviceSecret('terminal-secret') })
        .execute();
      return { car_device_id, car_data_id };
    },
    /** A live vehicle of the company with its own customer, and a terminal unless told otherwise. */
    car: async (target: Target, withDevice = true) => {
      const user_id = await f.user(target);
      const device = withDevice ? await f.device(target) : { car_device_id: null, car_data_id: null };
      const car_id = freshId('car', target);
      await db
        .insertInto('cars')
        .values({ car_id, company_id: companyOf[target], user_id, car_number: '品川 300 あ 12-34', ...device })
        .execute();
      return { car_id, user_id, car_device_id: device.car_device_id, car_data_id: device.car_data_id };
    },
    account: async (target: Target, role = 2) => {
      const account_id = freshId('ac', target);
      const email = `${account_id.toLowerCase()}@example.jp`;
      await db
        .insertInto('accounts')
        .values({
          account_id,
          name: '追加 太郎',
          email,
          role,
          company_id: companyOf[target],
          password_hash: inject('fixturePasswordHash'),
        })
        .execute();
      return { account_id, email };
    },
    template: async (target: Target, name = 'テンプレート') => {
      const template_id = freshId('tp', target);
      await db
        .insertInto('area_templates')
        .values({
          template_id,
          type: 'available',
          name,
          company_id: companyOf[target],
          areas: JSON.stringify([AREA]),
          created_by: null,
        })
        .execute();
      return template_id;
    },
    /** A vehicle whose terminal has a command waiting in the engine slot. */
    reservedCommand: async (target: Target) => {
      const car = await f.car(target);
      await reserveCommand(db, {
        car_data_id: car.car_data_id!,
        cmd_type: 'set_engine_boot_permission',
        cmd_info: { cmd: 1 },
        created_by: null,
      });
      return car;
    },
    reservationRequest: async (target: Target) => {
      const car = await f.car(target);
      const request_id = freshId('rq', target);
      await db
        .insertInto('reservation_requests')
        .values({
          request_id,
          car_id: car.car_id,
          company_id: companyOf[target],
          cmd: 1,
          execute_at: new Date(Date.now() + 3600_000).toISOString(),
          created_by: accounts.superAdmin.account_id,
          command_id: null,
          fired_at: null,
          reason: null,
          cancelled_by: null,
          cancelled_at: null,
        })
        .execute();
      return request_id;
    },
    resetToken: async (target: Target) => {
      const { account_id } = await f.account(target);
      const token = randomBytes(32).toString('base64url');
      await createResetToken(db, account_id, hashToken(token), 30);
      return token;
    },
  };
  return f;
}

/** The fixture world plus the extras the security suite needs; one app and database per test file. */
export async function createWorld(): Promise<World> {
  const t = await createTestApp();
  await seedFixtures(t.db);
  const db = t.db;
  await db
    .insertInto('accounts')
    .values(Object.values(extraAccounts).map((a) => ({ ...a, password_hash: inject('fixturePasswordHash') })))
    .execute();
  await db
    .insertInto('area_templates')
    .values([
      {
        template_id: 'tpl-a',
        type: 'available',
        name: 'A社テンプレート',
        company_id: companyA,
        areas: JSON.stringify([AREA]),
        created_by: null,
      },
      {
        template_id: 'tpl-b',
        type: 'available',
        name: 'B社テンプレート',
        company_id: companyB,
        areas: JSON.stringify([AREA]),
        created_by: null,
      },
      {
        template_id: 'tpl-shared',
        type: 'available',
        name: '共有テンプレート',
        company_id: null,
        areas: JSON.stringify([AREA]),
        created_by: null,
      },
    ])
    .execute();
  // One stored position per fixture terminal, so exports have something to send.
  await db
    .insertInto('gps_logs')
    .values(
      [fleet.A, fleet.B].map((f) => ({
        car_data_id: f.car_data_id,
        recorded_at: new Date('2026-01-15T03:00:00Z'),
        lat: 35.68,
        lng: 139.76,
      })),
    )
    .execute();
  const plainToken = (role: SignedInRole) => createSession(db, accountIdOf(role), LIFETIMES);
  // The matrix's sessions have stepped up (password re-entered) so a prohibit is judged on role and
  // company alone; the step-up dimension uses plainToken.
  const freshToken = async (role: SignedInRole) => {
    const token = await plainToken(role);
    const until = new Date(Date.now() + 3_600_000);
    await db
      .updateTable('sessions')
      .set({ stepped_up_until: until })
      .where('token_hash', '=', hashToken(token))
      .execute();
    return token;
  };
  const tokens = Object.fromEntries(
    await Promise.all(
      (roles.filter((r) => r !== 'anonymous') as SignedInRole[]).map(async (r) => [r, await freshToken(r)] as const),
    ),
  ) as Record<SignedInRole, string>;
  return { t, app: t.app, db, tokens, freshToken, plainToken, fresh: factories(db) };
}

/** Hiragana, katakana or kanji: the message is Japanese. */
export const JAPANESE = /[\u3040-\u30ff\u3400-\u9fff]/;

/** A 4xx/5xx answer is exactly the API error shape, with a Japanese message. */
export function expectErrorShape(
  res: LightMyRequestResponse | { statusCode: number; body: string; headers: Record<string, unknown> },
  label = '',
) {
  expect(String(res.headers['content-type']), `${label} content-type`).toMatch(/^application\/json/);
  const body = JSON.parse(res.body) as unknown;
  const parsed = ApiError.strict().safeParse(body);
  expect(parsed.success, `${label} error shape: ${res.body}`).toBe(true);
  expect((body as ApiError).message, `${label} Japanese message`).toMatch(JAPANESE);
}

/** Tables whose rows change on reads or on refused calls by design (sessions slide, failed logins are counted). */
const VOLATILE = new Set([
  'sessions',
  'login_attempts',
  'live_tickets',
  'password_reset_requests',
  'kysely_migration',
  'kysely_migration_lock',
]);

let tableNames: string[] | undefined;
/** Row count and an order-independent hash of every row, per table: equal checksums mean nothing was stored. */
export async function checksum(db: Db): Promise<Record<string, string>> {
  tableNames ??=
    // Tables and partitioned tables, not their partitions: a partitioned log's rows (and a trigger on it) cover every day.
    (
      await sql<{ name: string }>`select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = 'public' and c.relkind in ('r', 'p') and not c.relispartition order by 1`.execute(db)
    ).rows
      .map((r) => r.name)
      .filter((n) => !VOLATILE.has(n));
  const parts = tableNames.map(
    (n) =>
      sql`select ${n}::text as name, (count(*)::text || ':' || coalesce(sum(hashtext(t::text)::bigint), 0)::text) as sum from ${sql.table(n)} as t`,
  );
  const { rows } = await sql<{ name: string; sum: string }>`${sql.join(parts, sql` union all `)}`.execute(db);
  return Object.fromEntries(rows.map((r) => [r.name, r.sum]));
}

/** Every route the app registered, as 'METHOD /path', read from Fastify's own route tree. */
export function registeredRoutes(app: FastifyInstance): string[] {
  const out: string[] = [];
  const stack: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const m = /^([│ ]*)[├└]── (.+?)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!m) continue;
    const depth = m[1]!.length / 4;
    const path = (stack[depth - 1] ?? '') + m[2]!;
    stack[depth] = path;
    stack.length = depth + 1;
    for (const method of m[3]?.split(', ') ?? []) out.push(`${method} ${path}`);
  }
  return out.sort();
}

/**
 * Counts every row written to a table that matters (a row trigger per table,
 * test databases only). The count is transactional, so a write rolled back is
 * no write: an unchanged count after a refused call means nothing was stored.
 * Much cheaper than checksum() for thousands of generated calls.
 */
export async function installChangeCounter(db: Db): Promise<() => Promise<number>> {
  await checksum(db);
  await sql`CREATE TABLE security_writes (n bigint NOT NULL)`.execute(db);
  await sql`INSERT INTO security_writes VALUES (0)`.execute(db);
  await sql`CREATE FUNCTION security_count_write() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN UPDATE security_writes SET n = n + 1; RETURN NULL; END $$`.execute(
    db,
  );
  for (const table of tableNames!)
    await sql`CREATE TRIGGER security_count_write AFTER INSERT OR UPDATE OR DELETE ON ${sql.table(table)} FOR EACH ROW EXECUTE FUNCTION security_count_write()`.execute(
      db,
    );
  return async () => Number((await sql<{ n: number }>`SELECT n::int AS n FROM security_writes`.execute(db)).rows[0]!.n);
}
