import { createRequire } from 'node:module';
import path from 'node:path';
import { carGetBatteryLog } from '@fleet/contract';
import type { Browser } from '@playwright/test';
import type { BenchDb } from './db.js';
import type { Fleet } from './generate.js';
import type { Report } from './report.js';
import { call, type BenchServer } from './server.js';
import { ms, sample } from './stats.js';

/**
 * §4 Log screens: a 100,000-point battery chart drawn by uPlot in headless
 * Chromium (the library and options of the console's TimeChart), and the
 * battery log of the busy vehicle paged newest first: its first page and a
 * page deep in the log via before_id, beside their SQL.
 */
const uplotDir = path.dirname(createRequire(import.meta.url).resolve('uplot'));

export async function benchChart(browser: Browser, report: Report, points = 100_000) {
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  try {
    await page.setContent(
      '<!doctype html><html><body style="margin:0"><div id="chart" style="width:1200px"></div></body></html>',
    );
    await page.addStyleTag({ path: path.join(uplotDir, 'uPlot.min.css') });
    await page.addScriptTag({ path: path.join(uplotDir, 'uPlot.iife.min.js') });
    const times: number[] = [];
    for (let run = 0; run < 5; run++) {
      times.push(
        await page.evaluate(async (n) => {
          const x = new Array<number>(n),
            v = new Array<number>(n),
            p = new Array<number>(n);
          const start = Date.now() / 1000 - n;
          for (let i = 0; i < n; i++) {
            x[i] = start + i;
            v[i] = 12 + Math.sin(i / 3600) * 0.8 + Math.random() * 0.05;
            p[i] = 50 + 40 * Math.sin(i / 86_400);
          }
          const el = document.getElementById('chart')!;
          el.innerHTML = '';
          // eslint-disable-next-line @typescript-eslint/no-explicit-any
          const uPlot = (window as any).uPlot;
          return new Promise<number>((resolve) => {
            const t0 = performance.now();
            const opts = {
              width: 1200,
              height: 220,
              scales: { x: { time: true } },
              legend: { show: true },
              cursor: { drag: { x: true, y: false } },
              axes: [
                { stroke: '#666' },
                { stroke: '#1c64d9', scale: 'V', side: 3 },
                { stroke: '#f08c00', scale: '%', side: 1, grid: { show: false } },
              ],
              series: [
                { label: '時刻' },
                { label: '電圧', stroke: '#1c64d9', width: 1.5, scale: 'V', points: { show: false } },
                { label: '残量', stroke: '#f08c00', width: 1.5, scale: '%', points: { show: false } },
              ],
              hooks: { draw: [() => resolve(performance.now() - t0)] },
            };
            new uPlot(opts, [x, v, p], el);
          });
        }, points),
      );
    }
    times.sort((a, b) => a - b);
    report.add({
      section: '4 logs',
      name: `uPlot chart of ${points.toLocaleString('en-US')} points × 2 series drawn in Chromium`,
      value: `median ${ms(times[2]!)} ms (5 runs, worst ${ms(times[4]!)} ms)`,
      target: '≤ 100 ms',
      met: times[2]! <= 100,
    });
  } finally {
    await page.close();
  }
}

/**
 * The terminal's battery rows, and the body of a 1,000-row `car_get_battery_log` page 90 % deep into them,
 * its cursor as the console pages: the previous page's last row, its id and time (next_before_id / _at).
 */
export async function deepBatteryPage(bdb: BenchDb, id: string) {
  const [{ n: rows } = { n: 0 }] = await bdb.raw<{ n: number }>(
    'SELECT count(*)::int AS n FROM battery_logs WHERE car_data_id = $1',
    [id],
  );
  const depth = Math.floor(rows * 0.9);
  const [cursor] = await bdb.raw<{ id: number; recorded_at: Date | string }>(
    'SELECT id, recorded_at FROM battery_logs WHERE car_data_id = $1 ORDER BY recorded_at DESC, id DESC OFFSET $2 LIMIT 1',
    [id, depth],
  );
  const body = {
    car_data_id: id,
    limit: 1000,
    before_id: Number(cursor!.id),
    before_at: new Date(cursor!.recorded_at).toISOString(),
  };
  return { rows, depth, body };
}

export async function benchLogTable(bdb: BenchDb, server: BenchServer, fleet: Fleet, report: Report) {
  const id = fleet.busy.car_data_id;
  const deep = await deepBatteryPage(bdb, id);
  const figures: Record<string, { api: number; apiP95: number; raw: number }> = {};
  for (const [label, body] of [
    ['first page', { car_data_id: id, limit: 1000 }],
    [`page at row ${deep.depth.toLocaleString('en-US')} (before_id, before_at)`, deep.body],
  ] as const) {
    server.capture.start();
    await call(server, carGetBatteryLog.path, body);
    const q = server.capture.stop().find((c) => /battery_logs/.test(c.sql))!;
    const api = await sample(() => call(server, carGetBatteryLog.path, body), { runs: 30, budgetMs: 4000 });
    const raw = await sample(() => bdb.raw(q.sql, q.parameters), { runs: 30, budgetMs: 4000 });
    figures[label] = { api: api.p50, apiP95: api.p95, raw: raw.p50 };
    report.add({
      section: '4 logs',
      name: `battery log of ${deep.rows.toLocaleString('en-US')} rows, 1,000-row ${label}`,
      value: `p50 ${ms(api.p50)} / p95 ${ms(api.p95)} ms`,
      anchor: `raw SQL p50 ${ms(raw.p50)} ms`,
      ratio: `${(api.p50 / raw.p50).toFixed(1)}×`,
      ...(label.startsWith('page at')
        ? { target: 'deep page p95 ≤ 2× first page p95 (keyset)', met: api.p95 <= 2 * figures['first page']!.apiP95 }
        : {}),
    });
  }
}
