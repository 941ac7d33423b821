import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { migrate, openDatabase, SESSION_OPTIONS, type Database, type Db } from '@fleet/server/database';
import { statementCacheMode } from '@fleet/server/statement-cache';
import {
  PostgresQueryCompiler,
  type CompiledQuery,
  type KyselyPlugin,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryResult,
  type RootOperationNode,
  type UnknownRow,
} from 'kysely';
import pg from 'pg';

export type DbKind = 'pglite' | 'postgres';

/**
 * The database of one bench run: a database of its own on the PostgreSQL
 * server (dropped afterwards), or PGlite in a temporary folder (removed
 * afterwards). `raw` runs SQL beside the app: through its own `pg` pool on
 * PostgreSQL, straight on the PGlite instance otherwise.
 */
export interface BenchDb {
  kind: DbKind;
  database: Database;
  db: Db;
  /** `name`: PostgreSQL, run as that named prepared statement of its connection (planned once per connection). */
  raw<R = Record<string, unknown>>(text: string, params?: readonly unknown[], name?: string): Promise<R[]>;
  version: string;
  /** PostgreSQL: the URL of the bench database. */
  url?: string;
  /**
   * Closes the app's database and opens it again, as a restarted server does: PGlite starts a new instance on
   * the same folder (empty buffers and catalog caches), PostgreSQL a new pool (new backends, whose catalog
   * caches are empty; the server's shared buffers stay as they were). `database` and `db` are the new ones.
   */
  reopen(): Promise<void>;
  close(): Promise<void>;
}

export const DEFAULT_PG_URL = 'postgres://postgres@127.0.0.1:5432/postgres';

const urlFor = (url: string, name: string) => {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
};

/**
 * A pool for the raw anchors, its sessions opened as the server's (JIT off: a replay must not pay what the server
 * does not); an idle connection lost does not end the bench.
 */
export function anchorPool(url: string, max: number): pg.Pool {
  const pool = new pg.Pool({ connectionString: url, options: SESSION_OPTIONS, max });
  pool.on('error', () => undefined);
  return pool;
}

async function admin(url: string, statement: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/** `reuse`: PostgreSQL only, a database of that name kept between runs (created when missing). */
export async function openBenchDb(kind: DbKind, serverUrl: string, reuse?: string): Promise<BenchDb> {
  if (kind === 'postgres') {
    const name = reuse ?? `fleet_bench_${process.pid}`;
    if (!reuse) await admin(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin(serverUrl, `CREATE DATABASE ${name}`).catch((err: { code?: string }) => {
      if (!reuse || err.code !== '42P04') throw err;
    });
    const url = urlFor(serverUrl, name);
    const database = await openDatabase({ url });
    const pool = anchorPool(url, 10);
    await migrate(database.db);
    const version = (await pool.query<{ v: string }>('select version() as v')).rows[0]!.v;
    const bench: BenchDb = {
      kind,
      database,
      db: database.db,
      url,
      version,
      raw: async <R>(text: string, params: readonly unknown[] = [], name?: string) =>
        (await pool.query(name ? { name, text, values: params as unknown[] } : { text, values: params as unknown[] }))
          .rows as R[],
      reopen: async () => {
        await bench.database.close();
        bench.database = await openDatabase({ url });
        bench.db = bench.database.db;
      },
      close: async () => {
        await pool.end();
        await bench.database.close();
        if (!reuse) await admin(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      },
    };
    return bench;
  }
  const dir = mkdtempSync(path.join(tmpdir(), 'fleet-bench-'));
  const database = await openDatabase({ dataDir: dir });
  await migrate(database.db);
  const lite = () => bench.database.pglite!;
  const version = (await database.pglite!.query<{ v: string }>('select version() as v')).rows[0]!.v;
  const bench: BenchDb = {
    kind,
    database,
    db: database.db,
    version: `PGlite (${version.split(' on ')[0]})`,
    raw: async <R>(text: string, params: readonly unknown[] = []) =>
      (await lite().query<R>(text, params as unknown[])).rows,
    reopen: async () => {
      await bench.database.close();
      bench.database = await openDatabase({ dataDir: dir });
      bench.db = bench.database.db;
    },
    close: async () => {
      await bench.database.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return bench;
}

/**
 * Records the SQL the app issues (compiled exactly as Kysely sends it), so the
 * bench can time the list helper's own query through a raw driver.
 */
export class SqlCapture implements KyselyPlugin {
  private compiler = new PostgresQueryCompiler();
  private log: CompiledQuery[] | null = null;
  /**
   * Statements compiled while capturing, by query id, until their result comes: Kysely hands every
   * builder's node to the plugins, a subquery's too (a list's page keys, inside the page's statement),
   * so only a statement whose result came back was run, and only those are the call's SQL.
   */
  private compiled = new Map<string, CompiledQuery>();

  /**
   * While it records, the server compiles every statement (statementCacheMode.cache off): a list's
   * statement compiled once per shape (apps/server/src/db/statement-cache.ts) reaches no plugin when it
   * runs again, and its text is the same either way (test/list-statements.test.ts compares them for every
   * fast list).
   */
  start() {
    this.log = [];
    this.compiled.clear();
    statementCacheMode.cache = false;
  }
  stop(): CompiledQuery[] {
    const out = this.log ?? [];
    this.log = null;
    this.compiled.clear();
    statementCacheMode.cache = true;
    return out;
  }
  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    if (this.log) this.compiled.set(args.queryId.queryId, this.compiler.compileQuery(args.node, args.queryId));
    return args.node;
  }
  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    const ran = this.log && this.compiled.get(args.queryId.queryId);
    if (ran) this.log!.push(ran);
    return args.result;
  }
}
