#!/usr/bin/env node
/**
 * Two rules of docs/architecture.md that ESLint cannot see, checked over apps/server/src:
 * 1. The folders (modules) import each other in one direction: no cycle between folders, even when
 *    no single file is in a cycle (ESLint's import-x/no-cycle checks files).
 * 2. One writer per table: every INSERT, UPDATE, DELETE or MERGE of a table lives in one module; an outbox
 *    table's claim (mail/outbox-claim.ts) is written by the module that names it in defineOutbox('table', …).
 *    Migrations, the demo seed and the command-line tools are set-up, not owners, and are exempt.
 * Prints each violation and exits 1 when there is one.
 */
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../apps/server/src');
const SET_UP = new Set(['db', 'seed', 'cli']);

/** Source files (tests excluded) under a folder. */
function sources(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(full);
    return /\.ts$/.test(entry.name) && !/\.test\.ts$/.test(entry.name) ? [full] : [];
  });
}

/** The module a file belongs to: its first folder under src (a file directly in src is its own). */
const moduleOf = (file) => path.relative(root, file).split(path.sep)[0].replace(/\.ts$/, '');

const imports = new Map();
const writers = new Map();
const addTo = (map, key, value) => map.set(key, (map.get(key) ?? new Set()).add(value));

for (const file of sources(root)) {
  const text = readFileSync(file, 'utf8');
  const from = moduleOf(file);
  for (const [, specifier] of text.matchAll(/(?:from|import)\s*\(?\s*'(\.[^']+)'/g)) {
    const to = moduleOf(path.resolve(path.dirname(file), specifier));
    if (to !== from) addTo(imports, from, to);
  }
  if (SET_UP.has(from)) continue;
  const builder = text.matchAll(/(?:\.insertInto|\.updateTable|\.deleteFrom|\.mergeInto|\bdefineOutbox)\(\s*'(\w+)'/g);
  const rawSql = text.matchAll(/\b(?:INSERT INTO|UPDATE|DELETE FROM|MERGE INTO)\s+([a-z_]+)\b(?!\s*\()/g);
  for (const [, table] of [...builder, ...rawSql]) addTo(writers, table, from);
}

const problems = [];

// Cycles between modules: a depth-first search reports each back edge's cycle once.
const state = new Map();
const stack = [];
function visit(module) {
  state.set(module, 'open');
  stack.push(module);
  for (const next of imports.get(module) ?? []) {
    if (state.get(next) === 'open')
      problems.push(`import cycle between modules: ${[...stack.slice(stack.indexOf(next)), next].join(' → ')}`);
    else if (!state.has(next)) visit(next);
  }
  stack.pop();
  state.set(module, 'done');
}
for (const module of [...imports.keys()].sort()) if (!state.has(module)) visit(module);

for (const [table, modules] of [...writers].sort()) {
  if (modules.size > 1)
    problems.push(`table ${table} is written by ${modules.size} modules: ${[...modules].sort().join(', ')}`);
}

for (const problem of problems) console.error(problem);
if (problems.length > 0) process.exit(1);
console.log(`architecture: ${imports.size} modules without import cycles, ${writers.size} tables with one writer each`);
