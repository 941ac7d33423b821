#!/usr/bin/env node
/**
 * CI's check of `engines.node` (package.json): the Node running now is inside the range, and the
 * range's floor of each major it allows (e.g. 20.19.0 and 22.13.0 for `^20.19.0 || >=22.13.0`) is
 * accepted by every installed package that declares engines. A dependency that starts wanting a newer
 * Node (npm's EBADENGINE warning) fails here instead of going unnoticed.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import semver from 'semver';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const range = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).engines.node;
const lock = JSON.parse(readFileSync(path.join(root, 'package-lock.json'), 'utf8'));

const floors = new semver.Range(range).set.map(
  (comparators) => semver.minVersion(comparators.map(String).join(' ')).version,
);
const problems = [];
if (!semver.satisfies(process.version, range))
  problems.push(`this Node (${process.version}) is outside engines.node "${range}"`);
for (const [where, pkg] of Object.entries(lock.packages)) {
  const wanted = pkg.engines?.node;
  if (!where || typeof wanted !== 'string' || pkg.os || pkg.cpu) continue;
  for (const floor of floors) {
    if (!semver.satisfies(floor, wanted))
      problems.push(`${where.replace(/^.*node_modules\//, '')}@${pkg.version} wants node ${wanted}, not ${floor}`);
  }
}
if (problems.length) {
  console.error(`engines.node "${range}" does not hold:\n  ${problems.join('\n  ')}`);
  process.exit(1);
}
console.log(
  `engines.node "${range}": Node ${process.version} fits; floors ${floors.join(', ')} accepted by every dependency`,
);
