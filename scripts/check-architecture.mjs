#!/usr/bin/env node
/**
 * Checks apps/server/src against the rules of scripts/architecture-rules.mjs (import direction between
 * modules, one writer per table, every trigger listed, migration order, no Japanese text in SQL) and the
 * role numbers (only the capabilities module compares a role with a number). Prints each violation and exits 1 when there is one.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkArchitecture, checkRoleNumbers } from './architecture-rules.mjs';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { problems, modules, tables, triggers } = checkArchitecture(path.join(repoRoot, 'apps/server/src'));
problems.push(...checkRoleNumbers(repoRoot));
for (const problem of problems) console.error(problem);
if (problems.length > 0) process.exit(1);
console.log(
  `architecture: ${modules} modules without import cycles, ${tables} tables with one writer each (${triggers} triggers listed), migrations in order, no Japanese text in SQL, roles decided in permissions.ts`,
);
