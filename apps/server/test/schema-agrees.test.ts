import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helper.js';

/**
 * db/schema.ts is written by hand beside raw-SQL migrations. This test reads its `DB` interface with
 * the TypeScript compiler and compares it with the migrated database: every table and column on one
 * side exists on the other, and a column the database allows to be NULL is typed with `null`.
 */
const schemaPath = fileURLToPath(new URL('../src/db/schema.ts', import.meta.url));

interface DeclaredColumn {
  name: string;
  nullable: boolean;
}

function declaredTables(): Map<string, DeclaredColumn[]> {
  const source = ts.createSourceFile(schemaPath, readFileSync(schemaPath, 'utf8'), ts.ScriptTarget.Latest, true);
  const interfaces = new Map<string, ts.InterfaceDeclaration>();
  source.forEachChild((node) => {
    if (ts.isInterfaceDeclaration(node)) interfaces.set(node.name.text, node);
  });
  const db = interfaces.get('DB');
  if (!db) throw new Error('schema.ts has no DB interface');
  const tables = new Map<string, DeclaredColumn[]>();
  for (const member of db.members) {
    if (!ts.isPropertySignature(member) || !member.type || !ts.isTypeReferenceNode(member.type)) continue;
    const table = (member.name as ts.Identifier).text;
    const rowInterface = interfaces.get(member.type.typeName.getText(source));
    if (!rowInterface) throw new Error(`schema.ts: ${table} names no interface of this file`);
    tables.set(table, columnsOf(rowInterface));
  }
  return tables;

  /** The interface's own properties and those of the interfaces it extends. */
  function columnsOf(row: ts.InterfaceDeclaration): DeclaredColumn[] {
    const inherited = (row.heritageClauses ?? []).flatMap((clause) =>
      clause.types.map((base) => {
        const parent = interfaces.get(base.expression.getText(source));
        if (!parent) throw new Error(`schema.ts: ${row.name.text} extends an interface of another file`);
        return columnsOf(parent);
      }),
    );
    const own = row.members.filter(ts.isPropertySignature).map((column) => ({
      name: (column.name as ts.Identifier).text,
      nullable: /\bnull\b/.test(column.type?.getText(source) ?? ''),
    }));
    return [...inherited.flat(), ...own];
  }
}

interface DatabaseColumn {
  table_name: string;
  column_name: string;
  is_nullable: string;
  is_generated: string;
}

describe('db/schema.ts agrees with the migrated database', () => {
  let t: TestApp;
  let columns: DatabaseColumn[];
  const declared = declaredTables();

  beforeAll(async () => {
    t = await createTestApp();
    // Ordinary and partitioned tables of the app's schema; not Kysely's own bookkeeping, not partitions.
    const result = await sql<DatabaseColumn>`
      SELECT c.table_name, c.column_name, c.is_nullable, c.is_generated
      FROM information_schema.columns c
      JOIN pg_class k ON k.relname = c.table_name AND k.relnamespace = to_regnamespace(c.table_schema)
      WHERE c.table_schema = current_schema()
        AND k.relkind IN ('r', 'p') AND NOT k.relispartition
        AND c.table_name NOT LIKE 'kysely_migration%'
      ORDER BY c.table_name, c.ordinal_position`.execute(t.db);
    columns = result.rows;
  });
  afterAll(() => t.close());

  it('has the same tables', () => {
    const inDatabase = [...new Set(columns.map((c) => c.table_name))].sort();
    expect([...declared.keys()].sort()).toEqual(inDatabase);
  });

  it('has the same columns in every table', () => {
    for (const [table, declaredColumns] of declared) {
      const inDatabase = columns.filter((c) => c.table_name === table).map((c) => c.column_name);
      expect(declaredColumns.map((c) => c.name).sort(), table).toEqual(inDatabase.sort());
    }
  });

  // A generated column is always reported nullable; its expression decides, so it is left out.
  it('types a column the database lets be NULL with null', () => {
    const untyped = columns
      .filter((c) => c.is_nullable === 'YES' && c.is_generated !== 'ALWAYS')
      .filter((c) => declared.get(c.table_name)?.find((d) => d.name === c.column_name)?.nullable === false)
      .map((c) => `${c.table_name}.${c.column_name}`);
    expect(untyped).toEqual([]);
  });
});
