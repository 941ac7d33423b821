import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import listed from '../src/db/triggers.json' with { type: 'json' };
import { createTestApp, type TestApp } from './helper.js';

/** db/triggers.json lists every trigger of a migrated schema, by name and table, and nothing else. */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

it('the migrated schema has exactly the triggers db/triggers.json lists, on the tables it names', async () => {
  const { rows } = await sql<{ name: string; table: string }>`
    SELECT tg.tgname AS name, c.relname AS table
    FROM pg_trigger tg JOIN pg_class c ON c.oid = tg.tgrelid JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE NOT tg.tgisinternal AND n.nspname = current_schema()`.execute(t.db);
  const inDatabase = rows.map((r) => `${r.table}.${r.name}`).sort();
  const inList = listed.flatMap((trigger) => trigger.on.map((table) => `${table}.${trigger.name}`)).sort();
  expect(inDatabase).toEqual(inList);
});
