import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { checkArchitecture, checkRoleNumbers, tablesWritten } from '../../../scripts/architecture-rules.mjs';

/** The checker of `npm run check` (scripts/architecture-rules.mjs), on fixture trees that must be caught. */
const trees: string[] = [];
function tree(files: Record<string, string>): string {
  const root = mkdtempSync(path.join(tmpdir(), 'architecture-'));
  trees.push(root);
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
    writeFileSync(path.join(root, name), text);
  }
  return root;
}
afterEach(() => {
  for (const root of trees.splice(0)) rmSync(root, { recursive: true, force: true });
});

describe('one writer per table', () => {
  it('reads the table of every form of write, a column list after the name included', () => {
    expect(tablesWritten("db.insertInto('cars').values(v)")).toEqual(['cars']);
    expect(tablesWritten('sql`INSERT INTO audit_log (account_id, action) SELECT …`')).toEqual(['audit_log']);
    expect(tablesWritten('INSERT INTO audit_log(account_id) VALUES ($1)')).toEqual(['audit_log']);
    expect(tablesWritten('UPDATE reserved_commands SET state = 1')).toEqual(['reserved_commands']);
    expect(tablesWritten('DELETE FROM sessions WHERE id = $1')).toEqual(['sessions']);
    expect(tablesWritten("defineOutbox('mail_outbox', {})")).toEqual(['mail_outbox']);
  });

  it('catches a table inserted into with a column list from a second module', () => {
    const root = tree({
      'audit/audit.repository.ts': "export const w = (db) => db.insertInto('audit_log').values({});\n",
      'commands/c.repository.ts': 'export const q = sql`INSERT INTO audit_log (account_id) SELECT NULL`;\n',
    });
    expect(checkArchitecture(root).problems).toEqual(['table audit_log is written by 2 modules: audit, commands']);
  });

  it('accepts one module writing a table, and set-up folders writing anything', () => {
    const root = tree({
      'car/car.repository.ts': "db.insertInto('cars'); db.updateTable('cars'); db.deleteFrom('cars');\n",
      'seed/seed.ts': 'sql`INSERT INTO cars (id) VALUES (1)`;\n',
      'db/migrations/2026_01_01_000000_x.ts': 'sql`UPDATE cars SET x = 1`;\n',
      'db/migrations/index.ts': "export const m = {\n  '2026_01_01_000000_x': x,\n};\n",
    });
    expect(checkArchitecture(root).problems).toEqual([]);
  });
});

describe('triggers', () => {
  const migration = {
    'db/migrations/2026_12_01_090000_a.ts':
      'sql`CREATE TRIGGER cars_touch AFTER UPDATE ON cars FOR EACH ROW EXECUTE FUNCTION f()`;\n',
    'db/migrations/index.ts': "export const m = {\n  '2026_12_01_090000_a': a,\n};\n",
    'car/car.repository.ts': "db.updateTable('cars');\n",
  };
  const listed = (writes: Record<string, string[]>) =>
    JSON.stringify([{ name: 'cars_touch', on: ['cars'], writes, why: 'a reason' }]);

  it('catches a trigger that a migration creates and db/triggers.json does not list', () => {
    expect(checkArchitecture(tree(migration)).problems).toEqual([
      'trigger cars_touch is not listed in db/triggers.json',
    ]);
  });
  it('takes a trigger a later migration drops off the list it checks', () => {
    const root = tree({
      ...migration,
      'db/migrations/2026_12_02_090000_b.ts': 'sql`DROP TRIGGER cars_touch ON cars`;\n',
      'db/migrations/index.ts': "export const m = {\n  '2026_12_01_090000_a': a,\n  '2026_12_02_090000_b': b,\n};\n",
    });
    expect(checkArchitecture(root).problems).toEqual([]);
  });
  it('catches a listed trigger that no migration creates', () => {
    const root = tree({ ...migration, 'db/migrations/2026_12_01_090000_a.ts': '', 'db/triggers.json': listed({}) });
    expect(checkArchitecture(root).problems).toEqual([
      'trigger cars_touch is listed in db/triggers.json but no migration creates it',
    ]);
  });
  it("counts a trigger's writes: a table written by a trigger for another module has two writers", () => {
    const root = tree({ ...migration, 'db/triggers.json': listed({ company: ['cars'] }) });
    expect(checkArchitecture(root).problems).toEqual(['table cars is written by 2 modules: car, company']);
    const fine = tree({ ...migration, 'db/triggers.json': listed({ car: ['cars'] }) });
    expect(checkArchitecture(fine).problems).toEqual([]);
  });
});

describe('routes hold no SQL', () => {
  it('catches a query builder or SQL text in a routes file, not in a repository', () => {
    const root = tree({
      'car/car.routes.ts': "const car = await db.selectFrom('cars').selectAll().execute();\n",
      'ops/health.routes.ts': 'await sql`SELECT 1`.execute(db);\n',
      'car/car.repository.ts': "export const q = (db) => db.selectFrom('cars').selectAll();\n",
    });
    expect(checkArchitecture(root).problems).toEqual([
      'car/car.routes.ts holds SQL: move it into a repository',
      'ops/health.routes.ts holds SQL: move it into a repository',
    ]);
  });
});

describe('ingest knows what follows a stored position only through its interface', () => {
  it('catches the ingest core importing a module that follows it', () => {
    const root = tree({
      'gateway/ingest.service.ts': "import { evaluateBatches } from '../notify/evaluate-batch.js';\n",
      'gateway/group-commit.ts': "import type { IngestFollower } from './ingest-follower.js';\n",
      'gateway/ingest.repository.ts': "import { judgeZones } from '../zones/judge-batch.js';\n",
      'gateway/gateway.routes.ts': "import { notificationFollower } from '../notify/ingest-follower.js';\n",
      'notify/evaluate-batch.ts': 'export const evaluateBatches = 1;\n',
      'zones/judge-batch.ts': 'export const judgeZones = 1;\n',
    });
    expect(checkArchitecture(root).problems).toEqual([
      'gateway/ingest.service.ts imports notify: what follows a stored position plugs in through gateway/ingest-follower.ts',
      'gateway/ingest.repository.ts imports zones: what follows a stored position plugs in through gateway/ingest-follower.ts',
    ]);
  });
});

describe('imports between modules', () => {
  it('catches a cycle between two folders even when no file imports itself back', () => {
    const root = tree({
      'a/one.ts': "import { b } from '../b/two.js';\n",
      'b/two.ts': "import { a } from '../a/three.js';\n",
      'a/three.ts': 'export const a = 1;\n',
    });
    expect(checkArchitecture(root).problems).toEqual(['import cycle between modules: a → b → a']);
  });
});

describe('migration order', () => {
  const files = {
    'db/migrations/2026_12_01_090000_a.ts': '',
    'db/migrations/2026_12_02_090000_b.ts': '',
  };
  it('catches a migration registered last whose name sorts before one already registered', () => {
    const root = tree({
      ...files,
      'db/migrations/2026_11_30_090000_late.ts': '',
      'db/migrations/index.ts':
        "export const m = {\n  '2026_12_01_090000_a': a,\n  '2026_12_02_090000_b': b,\n  '2026_11_30_090000_late': late,\n};\n",
    });
    expect(checkArchitecture(root).problems).toEqual([
      'migration 2026_11_30_090000_late is registered after 2026_12_02_090000_b but does not sort after it',
    ]);
  });
  it('catches a migration file that is not registered', () => {
    const root = tree({ ...files, 'db/migrations/index.ts': "export const m = {\n  '2026_12_01_090000_a': a,\n};\n" });
    expect(checkArchitecture(root).problems).toEqual([
      'migration 2026_12_02_090000_b is not registered in db/migrations/index.ts',
    ]);
  });
});

describe('no Japanese text in SQL', () => {
  it('catches a message in the SQL of a repository and of a new migration, not in comments, TypeScript text or old migrations', () => {
    const index =
      "export const m = {\n  '2026_12_01_090000_old': a,\n  '2026_12_28_500000_codes': b,\n  '2026_12_29_090000_new': c,\n};\n";
    const root = tree({
      'db/migrations/index.ts': index,
      'db/migrations/2026_12_01_090000_old.ts': "const s = `UPDATE t SET why = '権限がなくなったため取消'`;\n",
      'db/migrations/2026_12_28_500000_codes.ts':
        "// 取消 reasons are codes\nconst s = `UPDATE t SET why = 'noRight'`;\n",
      'db/migrations/2026_12_29_090000_new.ts':
        "const s = `CREATE FUNCTION f() RETURNS text AS $$ SELECT '車両が削除されたため取消' $$`;\n",
      'alerts/a.repository.ts': "export const q = sql`SELECT 'x' || 'に失敗しました' AS what`;\n",
      'notify/b.repository.ts':
        '/** 通知の文面 */\nexport const what = `${name}に失敗しました`;\nexport const q = sql<{ n: number }>`SELECT count(*) AS n FROM t`;\n',
    });
    expect(checkArchitecture(root).problems).toEqual([
      'alerts/a.repository.ts holds Japanese text in SQL: store a code, take the text from the contract',
      'db/migrations/2026_12_29_090000_new.ts holds Japanese text in SQL: store a code, take the text from the contract',
    ]);
  });
});

describe('roles decided in permissions.ts', () => {
  it('catches a role compared with a number in TypeScript, SQL text and a Kysely where', () => {
    const root = tree({
      'apps/server/src/a/x.routes.ts': 'if (access.role !== 0) throw forbidden();\n',
      'apps/server/src/a/y.repository.ts':
        "q.where('a.role', 'in', [1, 2]);\nconst s = sql`coalesce(a.engine_control, a.role <= 1)`;\n",
      'apps/web/src/f/form.tsx': 'const superAdmin = actor.role === 0 && !actor.company_id;\n',
      'packages/contract/src/permissions.ts':
        'export const isAdministrator = (a) => a.role === roles.admin || a.role === 0;\n',
      'apps/server/src/db/migrations/m.ts': 'sql`SELECT p_role <= 1`;\n',
      'apps/server/src/a/x.test.ts': 'expect(role === 0).toBe(true);\n',
      'apps/web/src/f/defaults.tsx': 'const values = { role: 2 };\n',
    });
    expect(checkRoleNumbers(root)).toEqual([
      'apps/server/src/a/x.routes.ts:1: a role compared with a number outside permissions.ts',
      'apps/server/src/a/y.repository.ts:1: a role compared with a number outside permissions.ts',
      'apps/server/src/a/y.repository.ts:2: a role compared with a number outside permissions.ts',
      'apps/web/src/f/form.tsx:1: a role compared with a number outside permissions.ts',
    ]);
  });
});

it('the server itself keeps every rule', () => {
  const root = path.dirname(fileURLToPath(import.meta.url));
  expect(checkArchitecture(root).problems).toEqual([]);
  expect(checkRoleNumbers(path.resolve(root, '../../..'))).toEqual([]);
});
