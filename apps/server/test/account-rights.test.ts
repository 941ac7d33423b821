import { defaultEngineControl, isSuperAdmin } from '@fleet/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helper.js';

/**
 * The role rules the database needs (migration account_rights) are the contract's: every role, with and
 * without a company and an engine_control setting, answers alike in SQL and in TypeScript.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const cases = [0, 1, 2].flatMap((role) =>
  [null, 'c1'].flatMap((company_id) =>
    [null, true, false].map((engine_control) => ({ role, company_id, engine_control })),
  ),
);

it('account_engine_right and account_is_super_admin agree with defaultEngineControl and isSuperAdmin', async () => {
  for (const c of cases) {
    const { rows } = await sql<{ engine: boolean; superAdmin: boolean }>`
      SELECT account_engine_right(${c.engine_control}::boolean, ${c.role}::smallint) AS engine,
             account_is_super_admin(${c.role}::smallint, ${c.company_id}::text) AS "superAdmin"`.execute(t.db);
    expect(rows[0], JSON.stringify(c)).toEqual({
      engine: c.engine_control ?? defaultEngineControl(c.role),
      superAdmin: isSuperAdmin(c),
    });
  }
});
