import { createHash } from 'node:crypto';
import type { CompiledQuery, QueryResult } from 'kysely';
import { poolOf, type Db } from './database.js';

/**
 * At most this many statement texts get a name (per process): each named statement lives on every
 * pooled connection until it closes, so the set must stay bounded whatever the requests send (a list's
 * text depends on its sorts and filters). Texts past the cap run unnamed, as before: planned each time.
 */
export const MAX_PREPARED_TEXTS = 500;
const named = new Map<string, string>();

/** The name a text runs under, or undefined once MAX_PREPARED_TEXTS texts have names. */
function nameOf(text: string): string | undefined {
  let name = named.get(text);
  if (name === undefined && named.size < MAX_PREPARED_TEXTS) {
    // The text's hash: another text is another statement.
    name = `q_${createHash('sha1').update(text).digest('hex').slice(0, 24)}`;
    named.set(text, name);
  }
  return name;
}

/** How many texts have a name (tests). */
export const preparedTexts = (): number => named.size;

/**
 * Forgets every name (tests, whose files share one process): a text named again gets the same name, its
 * hash, which a connection that prepared it already knows.
 */
export const forgetPreparedTexts = (): void => named.clear();

/**
 * Runs a query as a named prepared statement of its connection on PostgreSQL, so it is planned once per
 * connection and then from its cached plan (PostgreSQL picks a generic plan only when it costs no more
 * than the custom ones); a transaction's statement runs on its connection the same way. For fixed-shape
 * statements run often whose planning costs more than running them: a list's page and count (20 rows by
 * primary key, planned in more time than they run: bench/README.md, Measurements behind the code: Lists), the gateway's group statement. The text must name
 * its columns (no `*`): a prepared statement whose result's columns change under it fails until its
 * connection closes. PGlite (one connection in the process, no planning to save) runs the text unnamed.
 *
 * `postgres`: whether `db` runs on PostgreSQL; by default, whether it has a pool (a transaction has
 * none: the caller that knows says so).
 */
export async function executePrepared<R>(
  db: Db,
  compiled: CompiledQuery<R>,
  postgres = poolOf(db) !== undefined,
): Promise<QueryResult<R>> {
  const name = postgres ? nameOf(compiled.sql) : undefined;
  if (name === undefined) return db.executeQuery(compiled);
  // pg takes a { name, text } config where a text goes (Kysely hands `sql` to client.query as it is).
  return db.executeQuery({ ...compiled, sql: { name, text: compiled.sql } } as unknown as CompiledQuery<R>);
}
