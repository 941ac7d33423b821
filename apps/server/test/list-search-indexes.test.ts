import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helper.js';

/**
 * The lists' search indexes (GIN: trigrams and bigrams of vehicles, customers, accounts and terminals) are written
 * through at once. With GIN's default fast update a write goes to a pending list that every search then reads in
 * full until a vacuum merges it, and the embedded database has no autovacuum: a few thousand pending entries made a
 * search several times slower than once merged (bench/README.md, Measurements behind the code: Lists). Master data is written rarely and
 * searched often.
 */
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

const ginIndexes = async () =>
  (
    await sql<{ name: string; options: string[] | null }>`
      SELECT c.relname AS name, c.reloptions AS options
        FROM pg_index i
        JOIN pg_class c ON c.oid = i.indexrelid
        JOIN pg_am a ON a.oid = c.relam
        JOIN pg_namespace n ON n.oid = c.relnamespace
       WHERE a.amname = 'gin' AND n.nspname = current_schema()
       ORDER BY 1`.execute(t.db)
  ).rows;

describe('list search indexes', () => {
  it('keep no pending list: every GIN index of the schema is built with fastupdate off', async () => {
    const indexes = await ginIndexes();
    expect(indexes.map((i) => i.name)).toEqual(
      expect.arrayContaining(['devices_ipaddr_trgm_idx', 'cars_user_name_key_bigram_idx', 'accounts_email_trgm_idx']),
    );
    expect(indexes.filter((i) => !(i.options ?? []).includes('fastupdate=off')).map((i) => i.name)).toEqual([]);
  });
});

/**
 * The lists' tables are vacuumed after a hundredth of their rows changed (migration master_data_autovacuum): a
 * count's index-only scan reads the table for every row on a page written since the last vacuum.
 */
describe("the lists' tables", () => {
  it('are vacuumed once a hundredth of their rows changed, so a count stays an index-only scan', async () => {
    const { rows } = await sql<{ table: string; options: string[] | null }>`
      SELECT relname AS table, reloptions AS options FROM pg_class
       WHERE relname IN ('cars', 'car_users', 'accounts', 'devices') AND relkind = 'r'
         AND relnamespace = to_regnamespace(current_schema())
       ORDER BY 1`.execute(t.db);
    expect(rows.map((r) => r.table)).toEqual(['accounts', 'car_users', 'cars', 'devices']);
    for (const r of rows)
      expect(r.options, r.table).toEqual(
        expect.arrayContaining(['autovacuum_vacuum_scale_factor=0.01', 'autovacuum_vacuum_insert_scale_factor=0.01']),
      );
  });
});
