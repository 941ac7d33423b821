/**
 * The rules of docs/architecture.md that ESLint cannot see, over a server source tree
 * (apps/server/src, or a fixture tree in the checker's own tests):
 * 1. The folders (modules) import each other in one direction: no cycle between folders, even when
 *    no single file is in a cycle (ESLint's import-x/no-cycle checks files).
 * 2. One writer per table: every INSERT, UPDATE, DELETE or MERGE of a table lives in one module, through
 *    Kysely (`.insertInto('t')`) or in SQL text (`INSERT INTO t (…)`); an outbox table's claim
 *    (outbox/claim.ts) is written by the module that names it in defineOutbox('table', …).
 *    Migrations (db/), the demo seed and the command-line tools are set-up, not owners, and are exempt.
 *    A trigger's writes count too: db/triggers.json names, for each table a trigger writes, the module
 *    whose table it is, so a trigger cannot give a table a second writer unseen.
 * 3. Every trigger the migrations create is listed in db/triggers.json (name, tables, writes, why),
 *    and every listed one is created by a migration: a trigger is business logic a TypeScript reader
 *    does not see, so it is written down where one looks.
 * 4. Roles are decided by the capabilities module alone (packages/contract/src/permissions.ts, with the
 *    role codes in enums.ts; SQL calls the functions of migration account_rights): no other source
 *    compares a role with a number, in TypeScript, in SQL text or in a Kysely where. Checked by
 *    `checkRoleNumbers` over the server, the web and the contract; set-up code and tests are exempt.
 * 5. Routes hold no SQL: a `*.routes.ts` file calls repositories (or a service), never Kysely's query
 *    builders or SQL text itself, so every statement is found in a repository.
 * 6. Migrations are registered in db/migrations/index.ts in ascending name order, every file once: the
 *    migrator refuses a database whose applied migrations are not a prefix of the sorted list, so a new
 *    migration must sort after every one already registered (a name dated in the past would not).
 * 7. SQL holds no Japanese text: what a person reads comes from the contract, and SQL that must say why
 *    (a trigger cancelling commands) stores a code the reading repository turns into the contract's text.
 *    Checked in every `sql` template of the server's sources and in every literal of a migration;
 *    migrations sorting before MESSAGES_OUT_OF_SQL_FROM were applied as they are and are left alone.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';

const SET_UP = new Set(['db', 'seed', 'cli']);

/** Source files (tests excluded) under a folder. */
function sources(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(full);
    return /\.ts$/.test(entry.name) && !/\.test\.ts$/.test(entry.name) ? [full] : [];
  });
}

/** TypeScript sources, .tsx included, under a folder (tests are left to the caller). */
function sourcesOf(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sourcesOf(full);
    return /\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

const BUILDER_WRITE = /(?:\.insertInto|\.updateTable|\.deleteFrom|\.mergeInto|\bdefineOutbox)\(\s*'(\w+)'/g;
// SQL keywords are written in capitals in this code base; `UPDATE t SET`, `INSERT INTO t (a, b)` and
// `DELETE FROM t WHERE` all name the table right after the keyword.
const SQL_WRITE = /\b(?:INSERT INTO|UPDATE|DELETE FROM|MERGE INTO)\s+([a-z_][a-z0-9_]*)\b/g;

const ROUTE_SQL = /\.(?:selectFrom|insertInto|updateTable|deleteFrom|mergeInto)\(|\bsql(?:<[^>]*>)?`/;

/** Migrations from this one on write no Japanese text in SQL (the ones before were applied as they are). */
export const MESSAGES_OUT_OF_SQL_FROM = '2026_12_28_500000';
/** Sources whose SQL still writes Japanese text, named so no other file may join them (none now). */
export const MESSAGES_STILL_IN_SQL = new Set([]);
const JAPANESE = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff]/;
const SQL_TEMPLATE = /\bsql(?:<[^>]*>)?`((?:[^`\\]|\\.)*)`/g;
const withoutComments = (text) => text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');

/** Where a source holds Japanese text in SQL: a migration anywhere outside its comments, other code in a `sql` template. */
export function japaneseInSql(text, migration) {
  const code = withoutComments(text);
  if (migration) return JAPANESE.test(code);
  return [...code.matchAll(SQL_TEMPLATE)].some(([, body]) => JAPANESE.test(body));
}

/** The tables a source text writes. */
export function tablesWritten(text) {
  return [...text.matchAll(BUILDER_WRITE), ...text.matchAll(SQL_WRITE)].map(([, table]) => table);
}

/** Migration names in the order index.ts registers them, and the migration files present. */
function migrationOrder(root) {
  const dir = path.join(root, 'db', 'migrations');
  const index = path.join(dir, 'index.ts');
  if (!existsSync(index)) return [];
  const registered = [...readFileSync(index, 'utf8').matchAll(/^\s*'(\d{4}_\d{2}_\d{2}_\d{6}_\w+)':/gm)].map(
    ([, name]) => name,
  );
  const files = readdirSync(dir)
    .filter((f) => /^\d{4}_\d{2}_\d{2}_\d{6}_\w+\.ts$/.test(f))
    .map((f) => f.replace(/\.ts$/, ''));
  const problems = [];
  for (let i = 1; i < registered.length; i += 1) {
    if (registered[i] <= registered[i - 1])
      problems.push(`migration ${registered[i]} is registered after ${registered[i - 1]} but does not sort after it`);
  }
  for (const file of files)
    if (!registered.includes(file)) problems.push(`migration ${file} is not registered in db/migrations/index.ts`);
  return problems;
}

/** The listed triggers (db/triggers.json), and problems of the list against the migrations' CREATE TRIGGERs. */
function listedTriggers(root) {
  const file = path.join(root, 'db', 'triggers.json');
  const listed = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : [];
  const dir = path.join(root, 'db', 'migrations');
  // The triggers the migrations leave, in their order: a later DROP TRIGGER takes one away again.
  const created = new Set();
  const migrations = existsSync(dir)
    ? readdirSync(dir)
        .filter((f) => f.endsWith('.ts'))
        .sort()
    : [];
  for (const f of migrations)
    for (const [, verb, name] of readFileSync(path.join(dir, f), 'utf8').matchAll(
      /(CREATE (?:OR REPLACE )?|DROP )TRIGGER (?:IF EXISTS )?(\w+)/g,
    ))
      if (verb.startsWith('DROP')) created.delete(name);
      else created.add(name);
  const names = new Set(listed.map((t) => t.name));
  const problems = [
    ...[...created].filter((n) => !names.has(n)).map((n) => `trigger ${n} is not listed in db/triggers.json`),
    ...[...names]
      .filter((n) => !created.has(n))
      .map((n) => `trigger ${n} is listed in db/triggers.json but no migration creates it`),
  ];
  return { listed, problems };
}

/** The ingest core, and the modules that follow a stored position: those plug in through gateway/ingest-follower.ts. */
const INGEST_CORE = ['gateway/ingest.service.ts', 'gateway/ingest.repository.ts', 'gateway/group-commit.ts'];
const FOLLOWERS = new Set(['notify', 'zones', 'alerts', 'trips', 'geocode', 'live', 'webhooks', 'push']);

/** Every violation of the rules in the tree `root`, and what was checked. */
export function checkArchitecture(root) {
  const moduleOf = (file) => path.relative(root, file).split(path.sep)[0].replace(/\.ts$/, '');
  const imports = new Map();
  const writers = new Map();
  const addTo = (map, key, value) => map.set(key, (map.get(key) ?? new Set()).add(value));
  const messagesInSql = [];

  for (const file of sources(root)) {
    const text = readFileSync(file, 'utf8');
    const from = moduleOf(file);
    for (const [, specifier] of text.matchAll(/(?:from|import)\s*\(?\s*'(\.[^']+)'/g)) {
      const to = moduleOf(path.resolve(path.dirname(file), specifier));
      if (to !== from) addTo(imports, from, to);
    }
    const name = path.relative(root, file).split(path.sep).join('/');
    const migration = /^db\/migrations\/(\d{4}_\d{2}_\d{2}_\d{6})_\w+\.ts$/.exec(name);
    const exempt = migration ? migration[1] < MESSAGES_OUT_OF_SQL_FROM : MESSAGES_STILL_IN_SQL.has(name);
    if (!exempt && japaneseInSql(text, migration !== null))
      messagesInSql.push(`${name} holds Japanese text in SQL: store a code, take the text from the contract`);
    if (SET_UP.has(from)) continue;
    for (const table of tablesWritten(text)) addTo(writers, table, from);
  }

  const triggers = listedTriggers(root);
  for (const trigger of triggers.listed)
    for (const [module, tables] of Object.entries(trigger.writes))
      if (!SET_UP.has(module)) for (const table of tables) addTo(writers, table, module);

  const problems = [...triggers.problems];
  // Cycles between modules: a depth-first search reports each back edge's cycle once.
  const state = new Map();
  const stack = [];
  const visit = (module) => {
    state.set(module, 'open');
    stack.push(module);
    for (const next of imports.get(module) ?? []) {
      if (state.get(next) === 'open')
        problems.push(`import cycle between modules: ${[...stack.slice(stack.indexOf(next)), next].join(' → ')}`);
      else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(module, 'done');
  };
  for (const module of [...imports.keys()].sort()) if (!state.has(module)) visit(module);

  for (const [table, modules] of [...writers].sort()) {
    if (modules.size > 1)
      problems.push(`table ${table} is written by ${modules.size} modules: ${[...modules].sort().join(', ')}`);
  }
  for (const file of sources(root).filter((f) => f.endsWith('.routes.ts'))) {
    if (ROUTE_SQL.test(readFileSync(file, 'utf8')))
      problems.push(`${path.relative(root, file).split(path.sep).join('/')} holds SQL: move it into a repository`);
  }
  for (const name of INGEST_CORE) {
    const file = path.join(root, name);
    if (!existsSync(file)) continue;
    for (const [, specifier] of readFileSync(file, 'utf8').matchAll(/(?:from|import)\s*\(?\s*'(\.[^']+)'/g)) {
      const to = moduleOf(path.resolve(path.dirname(file), specifier));
      if (FOLLOWERS.has(to))
        problems.push(
          `${name} imports ${to}: what follows a stored position plugs in through gateway/ingest-follower.ts`,
        );
    }
  }
  problems.push(...migrationOrder(root), ...messagesInSql);
  return { problems, modules: imports.size, tables: writers.size, triggers: triggers.listed.length };
}

/** Comparisons of a role with a number: `role === 0`, `a.role <= 1`, `role IN (1`, `.where('a.role', 'in', [1`. */
const ROLE_NUMBER =
  /\brole['"]?\s*(?:,\s*['"](?:in|not in|=|<>|!=|<|>|<=|>=)['"]\s*,\s*\[?|===|!==|==|!=|<>|<=|>=|<|>|=|\s+IN\s*\()\s*\d/gi;

/** Files under `dirs` (relative to `repoRoot`) comparing a role with a number outside the capabilities module. */
export function checkRoleNumbers(repoRoot, dirs = ['apps/server/src', 'apps/web/src', 'packages/contract/src']) {
  const allowed = new Set(['packages/contract/src/permissions.ts', 'packages/contract/src/enums.ts']);
  const exempt = /(?:^|\/)(?:db|seed|cli|testing)\/|\.test\.tsx?$/;
  const problems = [];
  for (const dir of dirs) {
    const full = path.join(repoRoot, dir);
    if (!existsSync(full)) continue;
    for (const file of sourcesOf(full)) {
      const name = path.relative(repoRoot, file).split(path.sep).join('/');
      if (allowed.has(name) || exempt.test(path.relative(full, file).split(path.sep).join('/'))) continue;
      readFileSync(file, 'utf8')
        .split('\n')
        .forEach((line, i) => {
          if (ROLE_NUMBER.test(line))
            problems.push(`${name}:${i + 1}: a role compared with a number outside permissions.ts`);
          ROLE_NUMBER.lastIndex = 0;
        });
    }
  }
  return problems;
}
