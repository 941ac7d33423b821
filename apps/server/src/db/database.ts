import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { Kysely, Migrator, PostgresDialect, sql, type KyselyPlugin, type MigrationProvider } from 'kysely';
import { PGliteDialect } from 'kysely-pglite-dialect';
import pg from 'pg';
import { migrations } from './migrations/index.js';
import type { DB } from './schema.js';

export type Db = Kysely<DB>;

// pg returns int8 and numeric as strings; PGlite returns numbers. Make both numbers.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));
pg.types.setTypeParser(pg.types.builtins.NUMERIC, (v) => Number(v));
// Dates stay strings (YYYY-MM-DD) so a birthday never shifts by a time zone.
pg.types.setTypeParser(pg.types.builtins.DATE, (v) => v);

export interface DatabaseOptions {
  /** A PostgreSQL URL; unset means embedded PGlite. */
  url?: string | undefined;
  /** PGlite data folder; unset means in memory. */
  dataDir?: string | undefined;
  /** A PGlite dump (from dumpDataDir) to start from, e.g. a migrated snapshot in tests. */
  loadDataDir?: Blob | File | undefined;
  poolSize?: number;
}

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  close(): Promise<void>;
  /** PGlite only: the raw instance (dumps, snapshots). */
  pglite?: PGlite;
}

/** The pg pool behind a PostgreSQL Kysely instance (the metrics read its counts). */
const pools = new WeakMap<Db, pg.Pool>();
export const poolOf = (db: Db): pg.Pool | undefined => pools.get(db);

/** The PGlite instance behind an embedded Kysely instance (its own NOTIFYs are heard through it). */
const pglites = new WeakMap<Db, PGlite>();
export const pgliteOf = (db: Db): PGlite | undefined => pglites.get(db);

/** db.withPlugin(plugin) that keeps its pool known (the signal channels LISTEN through it), e.g. the bench's SQL capture. */
export function withPlugin(db: Db, plugin: KyselyPlugin): Db {
  const out = db.withPlugin(plugin);
  const pool = pools.get(db);
  if (pool) pools.set(out, pool);
  return out;
}

/**
 * The startup options of the server's PostgreSQL sessions: JIT off. The logs are partitioned by day, so a
 * large read's plan holds every partition's expressions, and LLVM compiled them (inlined and optimised past
 * jit_optimize_above_cost) for seconds before the first row: the CSV export of a million battery rows took
 * several times as long with JIT (bench/README.md, Measurements behind the code: Logs). The console's statements are short and
 * planned once; none gains from JIT. A DATABASE_URL naming its own `options` replaces these (pg's rule: the
 * URL's parameters win), so such a URL should add `-c jit=off` itself. The bench's raw anchors use the same.
 */
export const SESSION_OPTIONS = '-c jit=off';

export async function openDatabase(opts: DatabaseOptions): Promise<Database> {
  if (opts.url) {
    // A database that accepts connections but never answers must not hold a request forever: after
    // 3 s without a connection (new, or a free one from the pool) the call fails and answers 503.
    const pool = new pg.Pool({
      connectionString: opts.url,
      options: SESSION_OPTIONS,
      max: opts.poolSize ?? 10,
      connectionTimeoutMillis: 3000,
    });
    // An idle client losing its connection (database restart) must not crash the process.
    pool.on('error', () => undefined);
    // Nor a checked-out one between two statements (inside a transaction): the pool listens only while
    // a client is idle, and an 'error' event nobody listens to kills the process. Its next query fails instead.
    pool.on('connect', (client) => client.on('error', () => undefined));
    const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
    pools.set(db, pool);
    return { db, kind: 'postgres', close: () => db.destroy() };
  }
  const pglite = await PGlite.create({
    // Trigram indexes serve the lists' substring search (migration list_search_trigram).
    extensions: { pg_trgm },
    ...(opts.dataDir ? { dataDir: opts.dataDir } : {}),
    ...(opts.loadDataDir ? { loadDataDir: opts.loadDataDir } : {}),
  });
  const db = new Kysely<DB>({ dialect: new PGliteDialect(pglite) });
  pglites.set(db, pglite);
  return {
    db,
    kind: 'pglite',
    pglite,
    close: async () => {
      await db.destroy();
      if (!pglite.closed) await pglite.close();
    },
  };
}

const provider: MigrationProvider = { getMigrations: async () => migrations };

/** The migrations this build knows; the newest is the one readiness waits for. */
export const knownMigrations = Object.keys(migrations).sort();

/** Whether the migration `name` was applied (Kysely's bookkeeping table; absent before the first, which throws). */
export async function hasMigration(db: Db, name: string): Promise<boolean> {
  const { rows } = await sql<{
    n: number;
  }>`SELECT count(*)::int AS n FROM kysely_migration WHERE name = ${name}`.execute(db);
  return Number(rows[0]?.n ?? 0) > 0;
}

/** A statement that touches nothing: whether the database answers. */
export async function ping(db: Db): Promise<void> {
  await sql`SELECT 1`.execute(db);
}

/** Runs every pending migration; throws with the failing migration's error. */
export async function migrate(db: Db): Promise<string[]> {
  const migrator = new Migrator({ db, provider });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
