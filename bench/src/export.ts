import { LOG_EXPORT_PATH } from '@fleet/contract';
import { runClient } from './child.js';
import type { Fleet } from './generate.js';
import type { Report } from './report.js';
import type { BenchServer } from './server.js';
import { int, mb, ms } from './stats.js';

/**
 * §5 CSV export of the busy vehicle's battery log: downloaded by a client
 * process while this process (the server, and PGlite when it is the
 * database) samples its own RSS every 20 ms.
 */
export async function benchExport(server: BenchServer, fleet: Fleet, report: Report) {
  // npm run bench runs node with --expose-gc: start from a collected heap, so the growth is the export's own.
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  await new Promise((r) => setTimeout(r, 500));
  const start = process.memoryUsage();
  const before = start.rss;
  let peak = before;
  let heapPeak = start.heapUsed;
  const timer = setInterval(() => {
    const m = process.memoryUsage();
    peak = Math.max(peak, m.rss);
    heapPeak = Math.max(heapPeak, m.heapUsed);
  }, 20);
  const params = new URLSearchParams({ kind: 'battery', car_data_id: fleet.busy.car_data_id });
  let r: { status: number; bytes: number; lines: number; firstByteMs: number; seconds: number };
  try {
    r = await runClient('download.ts', { url: `${server.url}${LOG_EXPORT_PATH}?${params}`, token: server.token });
  } finally {
    clearInterval(timer);
  }
  await new Promise((res) => setTimeout(res, 500));
  const after = process.memoryUsage().rss;
  // What the export left behind once its garbage is collected (retained, not just not yet freed).
  gc?.();
  const retained = gc ? `; heap after a full GC ${mb(process.memoryUsage().heapUsed)}` : '';
  const rows = r.lines - 1;
  const rate = rows / r.seconds;
  report.add({
    section: '5 export',
    name: `CSV export of ${int(rows)} battery rows (${mb(r.bytes)}, first byte after ${ms(r.firstByteMs)} ms, HTTP ${r.status})`,
    value: `${int(rate)} rows/s`,
    target: '≥ 100,000 rows/s',
    met: rate >= 100_000 && r.status === 200,
  });
  report.add({
    section: '5 export',
    name: 'server memory during the export (RSS)',
    value: `growth ${mb(peak - before)}`,
    anchor: `RSS before ${mb(before)}, peak ${mb(peak)}, after ${mb(after)}; JS heap in use ${mb(start.heapUsed)} → peak ${mb(heapPeak)}${retained}`,
    target: 'growth ≤ 100 MB',
    met: peak - before <= 100 * 1024 * 1024,
  });
}
