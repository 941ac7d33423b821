// Writes a brotli (.br) and a gzip (.gz) copy beside each text asset of a build folder (apps/web/dist), so
// the server sends them as they are (@fastify/static's preCompressed) instead of compressing every request.
// Usage: node scripts/precompress.mjs <folder>
import { readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const TEXT = /\.(?:js|mjs|css|html|svg|json|webmanifest|txt|xml|map)$/;
/** Below this a compressed copy saves less than its own headers cost. */
const MIN_BYTES = 1024;

function* files(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* files(file);
    else if (TEXT.test(entry.name)) yield file;
  }
}

const root = process.argv[2];
if (!root) {
  console.error('usage: node scripts/precompress.mjs <folder>');
  process.exit(2);
}
let count = 0;
for (const file of files(root)) {
  if (statSync(file).size < MIN_BYTES) continue;
  const raw = readFileSync(file);
  const br = brotliCompressSync(raw, {
    params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: raw.length },
  });
  const gz = gzipSync(raw, { level: 9 });
  // A copy no smaller than the file is left out: the server then sends the file itself.
  if (br.length < raw.length) writeFileSync(`${file}.br`, br);
  if (gz.length < raw.length) writeFileSync(`${file}.gz`, gz);
  count++;
}
console.log(`precompressed ${count} files in ${root}`);
