import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';

/**
 * `npm run fleet -- copy-to-postgres <url>`: every table of the embedded database (PGlite) into an empty,
 * migrated PostgreSQL database of the same schema. Generic over the catalogue (every table, every partition,
 * every sequence of the public schema), so a new table or partition needs nothing here.
 *
 * The whole copy is one transaction on the target: a failure (a constraint, a lost connection, row counts
 * that differ) leaves the target as empty as it was. Within it the target's own triggers are off (the list
 * counts, search indexes and change signals they maintain are copied as the source has them, not counted
 * twice); foreign keys stay on, so tables go in dependency order.
 */

/** The migrations' bookkeeping: the target keeps its own. */
const BOOKKEEPING = new Set(['kysely_migration', 'kysely_migration_lock']);
/** Heap pages per COPY chunk (8 KB each): a day of telemetry never sits whole in memory. */
const CHUNK_PAGES = 1024;

export class TargetNotEmptyError extends Error {
  constructor(readonly tables: { name: string; rows: number }[]) {
    super(`the target database is not empty: ${tables.map((t) => `${t.name} (${t.rows})`).join(', ')}`);
  }
}

export class CopyMismatchError extends Error {}

type Query = <R>(text: string, params?: unknown[]) => Promise<R[]>;

interface Table {
  name: string;
  kind: 'r' | 'p';
  /** Columns that take values (generated columns are computed by the target). */
  columns: string[];
}
interface Partition {
  parent: string;
  name: string;
  bound: string;
}

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

async function tablesOf(query: Query): Promise<Table[]> {
  const rows = await query<{ name: string; kind: 'r' | 'p'; columns: string[] }>(
    `SELECT c.relname AS name, c.relkind AS kind,
       (SELECT json_agg(a.attname::text ORDER BY a.attnum) FROM pg_attribute a
        WHERE a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped AND a.attgenerated = '') AS columns
     FROM pg_class c
     WHERE c.relnamespace = 'public'::regnamespace AND c.relkind IN ('r', 'p') AND NOT c.relispartition
     ORDER BY c.relname`,
  );
  return rows.filter((t) => !BOOKKEEPING.has(t.name)).map((t) => ({ ...t, columns: t.columns ?? [] }));
}

const partitionsOf = (query: Query) =>
  query<Partition>(
    `SELECT p.relname AS parent, c.relname AS name, pg_get_expr(c.relpartbound, c.oid) AS bound
     FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid JOIN pg_class p ON p.oid = i.inhparent
     WHERE p.relnamespace = 'public'::regnamespace AND p.relkind = 'p'
     ORDER BY p.relname, c.relname`,
  );

/** Tables ordered so that every table comes after the tables its foreign keys point at. */
async function dependencyOrder(query: Query, tables: Table[]): Promise<Table[]> {
  const keys = await query<{ child: string; parent: string }>(
    `SELECT c.relname AS child, p.relname AS parent FROM pg_constraint k
     JOIN pg_class c ON c.oid = k.conrelid JOIN pg_class p ON p.oid = k.confrelid
     WHERE k.contype = 'f' AND k.connamespace = 'public'::regnamespace AND k.conparentid = 0`,
  );
  const byName = new Map(tables.map((t) => [t.name, t]));
  const out: Table[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (name: string, path: string[]) => {
    if (state.get(name) === 'done') return;
    if (state.get(name) === 'visiting') throw new Error(`foreign keys form a cycle: ${[...path, name].join(' -> ')}`);
    state.set(name, 'visiting');
    for (const k of keys)
      if (k.child === name && k.parent !== name && byName.has(k.parent)) visit(k.parent, [...path, name]);
    state.set(name, 'done');
    out.push(byName.get(name)!);
  };
  for (const t of tables) visit(t.name, []);
  return out;
}

const countRows = async (query: Query, table: string) =>
  Number((await query<{ n: string | number }>(`SELECT count(*) AS n FROM ${quote(table)}`))[0]?.n ?? 0);

export interface CopyReport {
  tables: { name: string; rows: number }[];
  partitionsCreated: string[];
  sequences: number;
}

export interface CopyOptions {
  source: PGlite;
  targetUrl: string;
  progress?: (line: string) => void;
}

/** Copies every table; the target must be migrated to the source's migrations and otherwise empty. */
export async function copyToPostgres({ source, targetUrl, progress }: CopyOptions): Promise<CopyReport> {
  const fromSource: Query = async <R>(text: string, params?: unknown[]) => (await source.query<R>(text, params)).rows;
  const target = new pg.Client({ connectionString: targetUrl });
  await target.connect();
  const fromTarget: Query = async <R>(text: string, params?: unknown[]) =>
    (await target.query(text, params)).rows as R[];
  try {
    const sourceTables = await tablesOf(fromSource);
    const targetTables = new Map((await tablesOf(fromTarget)).map((t) => [t.name, t]));
    const differ = sourceTables.filter((t) => targetTables.get(t.name)?.columns.join(',') !== t.columns.join(','));
    const extra = [...targetTables.keys()].filter((name) => !sourceTables.some((t) => t.name === name));
    if (differ.length > 0 || extra.length > 0)
      throw new CopyMismatchError(
        `the schemas differ (tables ${[...differ.map((t) => t.name), ...extra].join(', ')}): ` +
          "run the same version's migrations on both",
      );

    // Rows the migrations wrote (a job's state row) were written in a migration's transaction, the one that
    // also recorded it in kysely_migration: those may be there, and give way to the source's. Any other row,
    // or one changed since (a server ran on this database), makes the target not empty.
    const occupied: { name: string; rows: number }[] = [];
    const seeded = new Set<string>();
    for (const t of sourceTables) {
      const [counts] = await fromTarget<{ rows: string | number; data: string | number }>(
        `SELECT count(*) AS rows,
           count(*) FILTER (WHERE xmin::text NOT IN (SELECT xmin::text FROM kysely_migration)) AS data
         FROM ${quote(t.name)}`,
      );
      if (Number(counts?.data ?? 0) > 0) occupied.push({ name: t.name, rows: Number(counts!.rows) });
      else if (Number(counts?.rows ?? 0) > 0) seeded.add(t.name);
    }
    if (occupied.length > 0) throw new TargetNotEmptyError(occupied);

    const order = await dependencyOrder(fromSource, sourceTables);
    const sourcePartitions = await partitionsOf(fromSource);
    const targetPartitions = new Set((await partitionsOf(fromTarget)).map((p) => p.name));
    const blockSize = Number((await fromSource<{ b: string }>(`SELECT current_setting('block_size') AS b`))[0]!.b);
    const report: CopyReport = { tables: [], partitionsCreated: [], sequences: 0 };

    await target.query('BEGIN');
    try {
      // Every table and partition, since a partition's triggers are its own copies of its parent's.
      const relations = await fromTarget<{ name: string }>(
        `SELECT relname AS name FROM pg_class WHERE relnamespace = 'public'::regnamespace AND relkind IN ('r', 'p')`,
      );
      for (const r of relations)
        if (!BOOKKEEPING.has(r.name)) await target.query(`ALTER TABLE ${quote(r.name)} DISABLE TRIGGER USER`);
      // The migrations' own rows give way to the source's (children first).
      for (const t of [...order].reverse()) if (seeded.has(t.name)) await target.query(`DELETE FROM ${quote(t.name)}`);
      for (const p of sourcePartitions) {
        if (targetPartitions.has(p.name)) continue;
        await target.query(`CREATE TABLE ${quote(p.name)} PARTITION OF ${quote(p.parent)} ${p.bound}`);
        report.partitionsCreated.push(p.name);
      }

      for (const table of order) {
        const columns = table.columns.map(quote).join(', ');
        const parts =
          table.kind === 'p'
            ? sourcePartitions.filter((p) => p.parent === table.name).map((p) => p.name)
            : [table.name];
        for (const part of parts) {
          const bytes = await fromSource<{ n: string | number }>(`SELECT pg_relation_size($1::regclass) AS n`, [
            quote(part),
          ]);
          const pages = Math.ceil(Number(bytes[0]?.n ?? 0) / blockSize);
          // Chunks of heap pages by ctid (a TID range scan): no ordering, no index, the same cost per chunk.
          for (let first = 0; first < pages; first += CHUNK_PAGES) {
            const result = await source.query(
              `COPY (SELECT ${columns} FROM ONLY ${quote(part)}
                 WHERE ctid >= '(${first},0)'::tid AND ctid < '(${first + CHUNK_PAGES},0)'::tid) TO '/dev/blob'`,
            );
            const blob = result.blob;
            if (!blob || blob.size === 0) continue;
            const stream = target.query(copyFrom(`COPY ${quote(table.name)} (${columns}) FROM STDIN`));
            const done = new Promise<void>((resolve, reject) => {
              stream.on('finish', resolve);
              stream.on('error', reject);
            });
            stream.end(Buffer.from(await blob.arrayBuffer()));
            await done;
          }
        }
        const expected = await countRows(fromSource, table.name);
        const copied = await countRows(fromTarget, table.name);
        if (copied !== expected)
          throw new CopyMismatchError(`${table.name}: ${expected} rows in the source, ${copied} copied`);
        report.tables.push({ name: table.name, rows: copied });
        progress?.(`${table.name}: ${copied}`);
      }

      const sequences = await fromSource<{ name: string }>(
        `SELECT relname AS name FROM pg_class WHERE relnamespace = 'public'::regnamespace AND relkind = 'S' ORDER BY relname`,
      );
      for (const { name } of sequences) {
        const [state] = await fromSource<{ last_value: string | number; is_called: boolean }>(
          `SELECT last_value::text AS last_value, is_called FROM ${quote(name)}`,
        );
        await target.query(`SELECT setval($1::regclass, $2::bigint, $3)`, [
          quote(name),
          String(state!.last_value),
          state!.is_called,
        ]);
        report.sequences++;
      }

      for (const r of relations)
        if (!BOOKKEEPING.has(r.name)) await target.query(`ALTER TABLE ${quote(r.name)} ENABLE TRIGGER USER`);
      await target.query('COMMIT');
    } catch (err) {
      await target.query('ROLLBACK').catch(() => undefined);
      throw err;
    }
    // Fresh statistics, so the first queries on the new database are planned on its real sizes.
    await target.query('ANALYZE');
    return report;
  } finally {
    await target.end();
  }
}
