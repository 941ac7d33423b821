import { sql } from 'kysely';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { openDatabase, type Database } from '../src/db/database.js';

/**
 * The server's PostgreSQL sessions (db/database.ts): JIT off. With the logs partitioned by day, a large
 * read's plan holds every partition's expressions, and LLVM compiled them for seconds before the first row
 * (the CSV export of a million battery rows took several times as long with JIT: bench/README.md, Measurements behind the code: Logs).
 */
const url = inject('databaseUrl');
let database: Database | undefined;

// Only SHOW runs, so the pool opens on the database DATABASE_URL names: no database of its own to make.
describe.runIf(!!url)('PostgreSQL sessions of the server', () => {
  afterAll(() => database?.close());

  it('run without JIT on every pooled connection, the URL’s own parameters kept', async () => {
    const u = new URL(url);
    u.searchParams.set('application_name', 'fleet-session-test');
    database = await openDatabase({ url: u.toString(), poolSize: 3 });
    const { db } = database;
    const show = async (conn: typeof db) => {
      const jit = await sql<{ jit: string }>`SHOW jit`.execute(conn);
      const app = await sql<{ application_name: string }>`SHOW application_name`.execute(conn);
      return `${jit.rows[0]!.jit} ${app.rows[0]!.application_name}`;
    };
    // Three connections held at once: each a session of its own.
    const seen = await Promise.all(
      [0, 1, 2].map(() =>
        db.connection().execute(async (conn) => {
          const s = await show(conn);
          await new Promise((resolve) => setTimeout(resolve, 50));
          return s;
        }),
      ),
    );
    expect(seen).toEqual(['off fleet-session-test', 'off fleet-session-test', 'off fleet-session-test']);
    // A transaction's connection too (the gateway's group commit, the engine commands).
    expect(await db.transaction().execute((trx) => show(trx))).toBe('off fleet-session-test');
  });
});
