import { LOG_EXPORT_PATH } from '@fleet/contract';
import { runClient } from './child.js';
import type { BenchDb } from './db.js';
import type { Fleet } from './generate.js';
import type { Report } from './report.js';
import { call, type BenchServer } from './server.js';
import { int, mb, ms, summarize } from './stats.js';

/**
 * 200,000 GPS points of the busy vehicle in 2020, before any generated data, in a partition of their own
 * (`gps_logs_stall`, the year) that is dropped afterwards: nothing of them stays in the log's pages.
 */
const POINTS = 200_000;
const FROM = '2020-01-01T00:00:00Z';
const TO = '2020-12-31T00:00:00Z';
const TARGET_MS = 200;

/**
 * Fires /api/me one after the other while `heavy` runs and returns the longest answer: how long
 * the heavy call made a cheap one wait (with PGlite the database runs in the server's process).
 */
async function longestStall<T>(server: BenchServer, heavy: () => Promise<T>) {
  const me = () => call(server, '/api/me', {});
  let running = true;
  const waits: number[] = [];
  const probe = (async () => {
    while (running) {
      const started = performance.now();
      await me();
      waits.push(performance.now() - started);
    }
  })();
  const started = performance.now();
  const result = await heavy().finally(() => (running = false));
  const seconds = (performance.now() - started) / 1000;
  await probe;
  const { p50, p95, max } = summarize(waits);
  return { result, seconds, longest: max, p50, p95, probes: waits.length };
}

/**
 * The longest stall of a cheap call during a 200,000-row CSV export and a 200,000-point GPS read (target ≤ 200 ms),
 * each cold and warm: cold is the first such call after the server started again on its database opened anew
 * (BenchServer.restart: on PGlite a new instance, its buffers, catalog caches and the code of its reads cold, as
 * after a deployment), warm the same call again right after. Before 29 November only the warm case was measured,
 * after sections that had warmed the database (47-112 ms), while the first export after a start stalled calls for
 * 0.47-0.86 s.
 */
export async function benchStall(bdb: BenchDb, server: BenchServer, fleet: Fleet, report: Report) {
  const imei = fleet.busy.car_data_id;
  await bdb.raw(`CREATE TABLE gps_logs_stall PARTITION OF gps_logs FOR VALUES FROM ('${FROM}') TO ('${TO}')`);
  await bdb.raw(
    `INSERT INTO gps_logs (car_data_id, recorded_at, lat, lng, speed, heading)
     SELECT $1, timestamptz '${FROM}' + make_interval(secs => i * 5), 35.6 + 0.02 * sin(i / 700.0), 139.7 + 0.02 * cos(i / 700.0), 30.5, 90
     FROM generate_series(1, ${POINTS}) AS i`,
    [imei],
  );
  // What the statistics job does on the embedded database (db/statistics.ts) after so many new rows: a
  // partition planned as empty made each batch of the export sort every older row (84-90 s, PGlite).
  await bdb.raw('ANALYZE gps_logs_stall');
  try {
    const params = new URLSearchParams({ kind: 'gps', car_data_id: imei, from: FROM, to: TO });
    const heavy: Record<'export' | 'route', () => Promise<unknown>> = {
      export: () =>
        runClient<{ status: number; bytes: number }>('download.ts', {
          url: `${server.url}${LOG_EXPORT_PATH}?${params}`,
          token: server.token,
        }),
      route: () => call(server, '/api/car_get_gps_log', { car_data_id: imei, from: FROM, to: TO }),
    };
    for (const kind of ['export', 'route'] as const) {
      await server.restart();
      // The probe's own first calls (its session, the code of /api/me) are not what is measured.
      const idle = await longestStall(server, () => new Promise((r) => setTimeout(r, 1000)));
      for (const when of ['cold', 'warm'] as const) {
        const s = await longestStall(server, heavy[kind]);
        const what =
          kind === 'export'
            ? (() => {
                const r = s.result as { status: number; bytes: number };
                return `a CSV export of ${int(POINTS)} GPS rows (${mb(r.bytes)}, HTTP ${r.status}, ${int(POINTS / s.seconds)} rows/s)`;
              })()
            : `car_get_gps_log over ${int(POINTS)} points`;
        report.add({
          section: 'stall',
          name: `longest /api/me answer during ${what}, ${when}${when === 'cold' ? ' (the first after a restart)' : ''}`,
          value: `${ms(s.longest)} ms`,
          anchor: `${s.probes} probes over ${s.seconds.toFixed(1)} s, p50 ${ms(s.p50)} / p95 ${ms(s.p95)} ms; idle: p50 ${ms(idle.p50)}, longest ${ms(idle.longest)} ms`,
          target: `≤ ${TARGET_MS} ms`,
          met: s.longest <= TARGET_MS,
        });
      }
    }
  } finally {
    // Deleted, their dead rows and index entries stayed in the default partition's pages, which the storage
    // section counted as the log's own (314 B a row for 100,158 live rows in a --quick stall,storage run).
    await bdb.raw('DROP TABLE gps_logs_stall');
  }
}
