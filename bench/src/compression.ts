import { carGetGpsLog, MAX_PAGE_SIZE } from '@fleet/contract';
import { performance } from 'node:perf_hooks';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Fleet } from './generate.js';
import type { Report } from './report.js';
import { call, type BenchServer } from './server.js';
import { kb, ms } from './stats.js';

/**
 * Compressing the API's answers in the server, or not (README "Deploying", compression): the largest answers
 * the console asks for, their bytes raw and compressed as an in-process compressor would (gzip at zlib's
 * default level 6, brotli at quality 4, the usual dynamic-content settings), the compressor's time on this
 * machine's event loop (median of 20), and what the bytes cost on a 10 Mbit/s link.
 */
const LINK_BYTES_PER_MS = 10_000_000 / 8 / 1000;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const timed = (fn: () => unknown) => {
  const times: number[] = [];
  for (let i = 0; i < 21; i++) {
    const start = performance.now();
    fn();
    if (i > 0) times.push(performance.now() - start);
  }
  return median(times);
};

export async function benchCompression(server: BenchServer, fleet: Fleet, report: Report) {
  const answers: [string, string][] = [
    [`car_list, a page of ${MAX_PAGE_SIZE}`, await call(server, '/api/car_list', { limit: MAX_PAGE_SIZE })],
    [
      'car_get_gps_log, the busy vehicle (max_points 5000)',
      await call(server, carGetGpsLog.path, {
        car_data_id: fleet.busy.car_data_id,
        from: '',
        to: '',
        max_points: 5000,
      }),
    ],
  ];
  for (const [label, text] of answers) {
    const raw = Buffer.from(text);
    const gzip = gzipSync(raw);
    const brotliOptions = { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } };
    const brotli = brotliCompressSync(raw, brotliOptions);
    const gzipMs = timed(() => gzipSync(raw));
    const brotliMs = timed(() => brotliCompressSync(raw, brotliOptions));
    const wire = (bytes: number) => ms(bytes / LINK_BYTES_PER_MS);
    report.add({
      section: 'compression',
      name: `${label}: ${kb(raw.length)} raw`,
      value: `gzip ${kb(gzip.length)} in ${ms(gzipMs)} ms, brotli ${kb(brotli.length)} in ${ms(brotliMs)} ms`,
      anchor: `at 10 Mbit/s: raw ${wire(raw.length)} ms, gzip ${wire(gzip.length)} ms, brotli ${wire(brotli.length)} ms`,
    });
  }
}
