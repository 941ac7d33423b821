import { randomBytes } from 'node:crypto';
import pg from 'pg';

/**
 * PostgreSQL housekeeping for the API tests: every run works in databases it
 * creates itself inside the server DATABASE_URL points at, so runs (and test
 * files) never see each other's data.
 */
export const uniqueDatabaseName = (prefix: string) =>
  `${prefix}_${process.pid}_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;

/** The same server and credentials, another database. */
export function urlForDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

/** Runs statements on the maintenance connection (the database DATABASE_URL names). */
export async function adminQuery(url: string, ...statements: string[]): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    for (const s of statements) await client.query(s);
  } finally {
    await client.end();
  }
}

/** Names come from uniqueDatabaseName only; quoting keeps them literal anyway. */
export const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;

export const dropDatabase = (url: string, name: string) =>
  adminQuery(url, `DROP DATABASE IF EXISTS ${ident(name)} WITH (FORCE)`);
