import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openDatabase, type Database } from '../src/db/database.js';
import { dropDatabase, ident, uniqueDatabaseName, urlForDatabase, adminQuery } from './databases.js';

/**
 * The server's PostgreSQL sessions (db/database.ts): JIT off. With the logs partitioned by day, a large
 * read's plan holds every partition's expressions, and LLVM compiled them for seconds before the first row
 * (the CSV export of a million battery rows: 10.7 s with JIT, 1.5 s without; issue #19, bench/README.md).
 */
const url = inject('databaseUrl');
const name = uniqueDatabaseName('fleet_session');
let database: Database | undefined;

describe.runIf(!!url)('PostgreSQL sessions of the server', () => {
  beforeAll(async () => {
    await adminQuery(url, `CREATE DATABASE ${ident(name)}`);
  });
  afterAll(async () => {
    await database?.close();
    await dropDatabase(url, name);
  });

  it('run without JIT on every pooled connection, the URL’s own parameters kept', async () => {
    const u = new URL(urlForDatabase(url, name));
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
