import { accountSortColumns, carSortColumns, carUserSortColumns, deviceSortColumns } from '@fleet/contract';
import type { CompiledQuery } from 'kysely';
import { runClient } from './child.js';
import type { BenchDb } from './db.js';
import type { Report } from './report.js';
import { call, type BenchServer } from './server.js';
import { ms, sample, type Sample } from './stats.js';

/**
 * §1 List calls on the big tables: each case through HTTP (auth, validation,
 * response schema) beside the list helper's own SQL, captured as the app
 * sent it and replayed through the raw driver; then throughput of the first
 * page at 20 concurrent clients (autocannon, in its own process).
 */
interface ListSpec {
  name: string;
  list: string;
  count: string;
  table: string;
  sortable: readonly string[];
  searches: { label: string; item: string; text: string }[];
}

const specs: ListSpec[] = [
  {
    name: 'vehicles',
    list: '/api/car_list',
    count: '/api/car_list_count',
    table: 'cars',
    sortable: carSortColumns,
    searches: [
      { label: 'customer name 田中', item: '1', text: '田中' },
      { label: 'car_id part 0123', item: '0', text: '0123' },
    ],
  },
  {
    name: 'customers',
    list: '/api/user_list',
    count: '/api/user_list_count',
    table: 'car_users',
    sortable: carUserSortColumns,
    searches: [
      { label: 'name 佐藤', item: '1', text: '佐藤' },
      { label: 'user_id part 0123', item: '0', text: '0123' },
    ],
  },
  {
    name: 'terminals',
    list: '/api/device_list',
    count: '/api/device_list_count',
    table: 'devices',
    sortable: deviceSortColumns,
    searches: [
      { label: 'ipaddr part .12.3', item: '1', text: '.12.3' },
      { label: 'car_device_id part 0123', item: '0', text: '0123' },
    ],
  },
  {
    name: 'accounts',
    list: '/api/account_list',
    count: '/api/account_list_count',
    table: 'accounts',
    sortable: accountSortColumns,
    searches: [
      { label: 'name 鈴木', item: '1', text: '鈴木' },
      { label: 'email part user1234', item: '2', text: 'user1234' },
    ],
  },
];

export interface ListOptions {
  quick: boolean;
  /** autocannon seconds per list. */
  duration: number;
}

/** The statement of the captured SQL that answers the call: the paged select, or the count. */
function mainQuery(queries: CompiledQuery[], kind: 'list' | 'count'): CompiledQuery {
  const found = queries.find((q) =>
    kind === 'count' ? /count\(\*\)/i.test(q.sql) : /\blimit\b/i.test(q.sql) && /\boffset\b/i.test(q.sql),
  );
  if (!found) throw new Error(`no ${kind} query among: ${queries.map((q) => q.sql.slice(0, 80)).join(' | ')}`);
  return found;
}

const TARGET = 'p95 ≤ 20 ms, ≤ 2× raw';

async function measureCase(
  bdb: BenchDb,
  server: BenchServer,
  path: string,
  body: object,
  kind: 'list' | 'count',
  runs: number,
) {
  server.capture.start();
  await call(server, path, body);
  const query = mainQuery(server.capture.stop(), kind);
  const budgetMs = runs > 30 ? 4000 : 1500;
  const api = await sample(() => call(server, path, body), { runs, budgetMs });
  const raw = await sample(() => bdb.raw(query.sql, query.parameters), { runs, budgetMs });
  return { api, raw, sql: query.sql };
}

function addCase(report: Report, name: string, api: Sample, raw: Sample) {
  const ratio = api.p50 / raw.p50;
  const fast = api.p95 <= 20;
  const close = ratio <= 2;
  report.add({
    section: '1 lists',
    name,
    value: `p50 ${ms(api.p50)} / p95 ${ms(api.p95)} ms`,
    anchor: `raw SQL p50 ${ms(raw.p50)} / p95 ${ms(raw.p95)} ms`,
    ratio: `${ratio.toFixed(1)}×`,
    target: TARGET,
    met: fast && close,
    verdict: fast === close ? undefined : fast ? 'p95 met, ratio missed' : 'ratio met, p95 missed',
  });
}

export async function benchLists(bdb: BenchDb, server: BenchServer, report: Report, opts: ListOptions) {
  const runs = opts.quick ? 10 : 40;
  // The floor every call pays before its own query: HTTP, JSON, session lookup and touch (+ one tiny query).
  const floor = await sample(() => call(server, '/api/me', {}), { runs, budgetMs: 3000 });
  report.add({
    section: '1 lists',
    name: 'floor of any signed-in call (/api/me: HTTP, token check, session touch)',
    value: `p50 ${ms(floor.p50)} / p95 ${ms(floor.p95)} ms`,
    anchor: 'a raw query under ~1 ms cannot be within 2× of this',
  });
  const slow: { name: string; sql: string; raw: number }[] = [];
  for (const spec of specs) {
    const total = (await bdb.raw<{ n: number }>(`SELECT count(*)::int AS n FROM ${spec.table} WHERE NOT is_delete`))[0]!
      .n;
    const deep = Math.floor((total * 0.9) / 20) * 20;
    const cases: { label: string; body: object; kind: 'list' | 'count' }[] = [
      { label: 'first page', body: { offset: 0, limit: 20 }, kind: 'list' },
      { label: 'count', body: {}, kind: 'count' },
      { label: `deep page (offset ${deep.toLocaleString('en-US')})`, body: { offset: deep, limit: 20 }, kind: 'list' },
      ...spec.searches.flatMap((s) => [
        {
          label: `search ${s.label}`,
          body: { search_item: s.item, search_text: s.text, offset: 0, limit: 20 },
          kind: 'list' as const,
        },
        {
          label: `count of search ${s.label}`,
          body: { search_item: s.item, search_text: s.text },
          kind: 'count' as const,
        },
      ]),
      ...spec.sortable.flatMap((c) => [
        { label: `sort ${c} desc`, body: { sorts: `${c} desc`, offset: 0, limit: 20 }, kind: 'list' as const },
      ]),
    ];
    for (const c of cases) {
      const { api, raw, sql } = await measureCase(
        bdb,
        server,
        c.kind === 'count' ? spec.count : spec.list,
        c.body,
        c.kind,
        runs,
      );
      addCase(report, `${spec.name} (${total.toLocaleString('en-US')} rows): ${c.label}`, api, raw);
      if (raw.p95 > 20) slow.push({ name: `${spec.name}: ${c.label}`, sql, raw: raw.p95 });
    }
  }
  for (const spec of specs) {
    const r = await runClient<{ rps: number; p99: number; errors: number; total: number }>('cannon.ts', {
      url: `${server.url}${spec.list}`,
      body: JSON.stringify({ offset: 0, limit: 20 }),
      token: server.token,
      connections: 20,
      duration: opts.duration,
    });
    report.add({
      section: '1 lists',
      name: `${spec.name} first page, 20 concurrent clients (autocannon ${opts.duration} s)`,
      value: `${Math.round(r.rps)} req/s, p99 ${r.p99} ms, ${r.errors} errors`,
      target: '≥ 1,000 req/s, p99 ≤ 100 ms, 0 errors',
      met: r.rps >= 1000 && r.p99 <= 100 && r.errors === 0,
    });
  }
  for (const s of slow)
    report.note(`slow raw SQL (${s.name}, p95 ${ms(s.raw)} ms): \`${s.sql.replace(/\s+/g, ' ').slice(0, 400)}\``);
}
