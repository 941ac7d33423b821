import { accountSortColumns, carSortColumns, carUserSortColumns, deviceSortColumns } from '@fleet/contract';
import { createHash } from 'node:crypto';
import { SESSION_OPTIONS } from '@fleet/server/database';
import type { CompiledQuery } from 'kysely';
import { runClient, type ClientInput } from './child.js';
import type { BenchDb } from './db.js';
import type { Report } from './report.js';
import { isSessionUpkeep, sqlTimePerCall, startInCall, stopInCall, takeInCall } from './in-call.js';
import { call, type BareStatement, type BenchServer } from './server.js';
import { kb, ms, summarize, timedRuns, type Sample } from './stats.js';

/**
 * §1 List calls on the big tables (issue #19): each case through HTTP (auth,
 * validation, response schema) from a client process of its own over one
 * keep-alive connection, beside the call's own SQL (every statement captured as
 * the app sent it and replayed in order through the raw driver, as named prepared statements where the app
 * prepares them, in turns with the case's API calls, block by block, and on PostgreSQL from a process of its
 * own) and beside a bare Fastify route
 * of the bench's server running the same statements through the raw driver and answering the same bytes
 * (the framework's floor at the same wait: on a machine of two vCPUs, a call that waits 5-10 ms on anything
 * costs the client and the framework more than one that waits 0.3: README, "The framework waiting as long"). The
 * overhead judged is the API − its SQL as timed inside the calls (in-call.ts; the replay beside it, whose
 * statement runs on another backend at another moment). Then throughput of the first page at 20
 * concurrent clients (autocannon, in its own process).
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

/**
 * The statements a call ran (SqlCapture records only those whose result came back), in order, but the
 * session's upkeep (its lookup, the idle-time slide, which the session cache makes rare): the call's own
 * SQL, all of it. The anchor replays them one after the other, as the call does.
 */
function callQueries(queries: CompiledQuery[], kind: 'list' | 'count'): CompiledQuery[] {
  const own = queries.filter((q) => !isSessionUpkeep(q.sql));
  const main = own.some((q) =>
    // A page's statement has a LIMIT (a first page no OFFSET: http/list-query.ts applyListPage); a count
    // counts the rows or sums the list's tally (migration list_counts).
    kind === 'count' ? /count\(\*\)|\bsum\(t\.n\)/i.test(q.sql) : /\blimit\b/i.test(q.sql),
  );
  if (!main) throw new Error(`no ${kind} query among: ${queries.map((q) => q.sql.slice(0, 80)).join(' | ')}`);
  return own;
}

const nameOf = (text: string) => `bench_${createHash('sha1').update(text).digest('hex').slice(0, 24)}`;

const TARGET = 'API − its SQL ≤ 1 ms p50, API p95 ≤ 20 ms';

interface Case {
  name: string;
  path: string;
  body: object;
  kind: 'list' | 'count';
}

/** The captured statement of a case, and the API's answer (the bare route answers the same bytes). */
async function capture(server: BenchServer, c: Case) {
  server.capture.start();
  const text = await call(server, c.path, c.body);
  const queries = callQueries(server.capture.stop(), c.kind);
  if (process.env.BENCH_SHOW_SQL)
    console.log(
      c.name,
      queries.map((q) => q.sql.slice(0, 160)),
    );
  return { queries, text };
}

type Timed = Sample & { bytes: number };

/** Calls of a case timed between two blocks of its anchor's replays (and replays between two blocks of calls). */
const TURN = 10;
/**
 * Untimed calls of a case before its timed ones, and as many replays before its anchor's: past the sixth
 * execution, where PostgreSQL settles a prepared statement's plan (apps/server/src/db/prepared.ts).
 */
const WARMUP = 10;

/**
 * Every case through HTTP from a client process of its own (clients/calls.ts: one keep-alive
 * connection, calls one after the other), each beside the bench's bare route answering its bytes,
 * and in turns with its SQL anchor: TURN calls, then `anchor(i)` runs TURN replays of case i's
 * statements while the client waits, and so on (`warm`: the anchor's warm-up, before the first), each
 * block after an untimed first call or replay, so both sides are timed back to back and a machine whose
 * speed moves weighs on both alike (timed seconds apart, a case's API calls all before its anchor's
 * replays, a slower second showed as overhead).
 */
async function timeFromClient(
  server: BenchServer,
  cases: { path: string; body: object; paired: boolean; statements?: number; bare: string }[],
  quick: boolean,
  anchor: (i: number, warm: boolean) => Promise<number[]>,
) {
  // Each case beside its bare route (`bare`: the path of the one that answers its bytes).
  const list = cases.flatMap((c) => [
    { path: c.path, body: JSON.stringify(c.body), paired: c.paired },
    { path: c.bare, body: JSON.stringify(c.body) },
  ]);
  const anchors: number[][] = cases.map(() => []);
  // The SQL time inside each timed call (in-call.ts), taken block by block as the client hands over.
  const inCall: number[][] = cases.map(() => []);
  let turns = Promise.resolve();
  let failed: unknown;
  startInCall();
  const out = await runClient<Timed[]>(
    'calls.ts',
    {
      url: server.url,
      token: server.token,
      runs: quick ? 200 : 500,
      // The budget holds the anchor's replays too: each turn is TURN calls and TURN replays.
      budgetMs: quick ? 2000 : 5000,
      warmup: WARMUP,
      turns: TURN,
      cases: list,
    },
    (line, input) => {
      const turn = /^# (warm|turn) (\d+)$/.exec(line.trim());
      if (!turn) return;
      // Even entries are the API's (odd ones the bare route's, which have no anchor).
      const i = Number(turn[2]) / 2;
      // What ran since the last hand-over: a warm-up (and the cases before), or this case's block.
      const block = takeInCall();
      if (turn[1] === 'turn' && failed === undefined)
        try {
          inCall[i]!.push(...sqlTimePerCall(block, cases[i]!.statements ?? 1));
        } catch (e) {
          failed = e;
        }
      turns = turns.then(async () => {
        if (failed === undefined) {
          const took = await anchor(i, turn[1] === 'warm').catch((e: unknown) => {
            failed = e;
            return [];
          });
          anchors[i]!.push(...took);
        }
        input.say('go');
      });
    },
  ).finally(stopInCall);
  await turns;
  if (failed !== undefined) throw failed;
  return cases.map((c, i) => ({
    api: out[2 * i]!,
    bare: out[2 * i + 1]!,
    anchor: c.paired ? summarize(anchors[i]!) : undefined,
    // PGlite runs in the server's process without `pg`: nothing to time there.
    inCall: inCall[i]!.length ? summarize(inCall[i]!) : undefined,
  }));
}

/**
 * The SQL anchors on PostgreSQL: clients/sql.ts, a process of its own with one connection, so the replays
 * never run `pg` in the server's process between the API's calls. `replay` sends it a turn of a case (its
 * statements with the first): `untimed` replays, then `timed` ones, whose milliseconds it resolves with;
 * `end` closes it.
 */
function sqlAnchor(url: string) {
  const waiting = new Map<number, (took: number[]) => void>();
  const sent = new Set<number>();
  let input: ClientInput | undefined;
  let ready!: () => void;
  const started = new Promise<void>((resolve) => (ready = resolve));
  const finished = runClient<object>('sql.ts', { url, options: SESSION_OPTIONS }, (line, given) => {
    if (line.trim() === '# ready') {
      input = given;
      return ready();
    }
    const m = /^# sql (\d+) (.*)$/.exec(line.trim());
    if (!m) return;
    waiting.get(Number(m[1]))?.(JSON.parse(m[2]!) as number[]);
    waiting.delete(Number(m[1]));
  });
  finished.catch(() => undefined); // awaited by `replay` and `end`
  const running = async () => {
    await Promise.race([started, finished]);
    if (!input) throw new Error('the SQL client ended before it was ready');
    return input;
  };
  return {
    async replay(i: number, queries: BareStatement[], untimed: number, timed: number): Promise<number[]> {
      const to = await running();
      return new Promise<number[]>((resolve, reject) => {
        waiting.set(i, resolve);
        finished.catch(reject);
        to.say(JSON.stringify({ i, ...(sent.has(i) ? {} : { queries }), untimed, timed }));
        sent.add(i);
      });
    },
    async end() {
      input?.end();
      await finished;
    },
  };
}

const signed = (x: number) => `${x >= 0 ? '+' : ''}${ms(x)}`;

/**
 * A case beside its anchors. The overhead judged is the API's p50 above its SQL's as timed inside the calls
 * (in-call.ts: the same statements on the same connection at the same moment); the replay's is shown beside
 * it. Without in-call timings (PGlite: no `pg`), the replay's is judged.
 */
function addCase(
  report: Report,
  name: string,
  api: Timed,
  raw: Sample,
  inCall: Sample | undefined,
  bare: { call: Timed; sql: Sample },
  statements: number,
) {
  const sqlOf = inCall ?? raw;
  const floor = bare.call.p50 - bare.sql.p50;
  const over50 = api.p50 - sqlOf.p50;
  const over95 = api.p95 - sqlOf.p95;
  const fast = api.p95 <= 20;
  const close = over50 <= 1;
  const replayed = `replayed alone (${statements} statement${statements > 1 ? 's' : ''}) p50 ${ms(raw.p50)} / p95 ${ms(raw.p95)} ms`;
  report.add({
    section: '1 lists',
    name,
    value: `API p50 ${ms(api.p50)} / p95 ${ms(api.p95)} ms`,
    anchor: `${inCall ? `its SQL inside the calls p50 ${ms(inCall.p50)} / p95 ${ms(inCall.p95)} ms; ` : ''}${replayed}; bare Fastify running its SQL p50 ${ms(bare.call.p50)} / p95 ${ms(bare.call.p95)} ms, its SQL p50 ${ms(bare.sql.p50)} ms (${kb(api.bytes)})`,
    ratio: `API − its SQL: ${signed(over50)} p50 / ${signed(over95)} p95 ms${inCall ? ` (API − replay: ${signed(api.p50 - raw.p50)} p50)` : ''}; bare − its SQL: ${signed(floor)} p50, the API's own ${signed(over50 - floor)}`,
    target: TARGET,
    met: fast && close,
    verdict: fast === close ? undefined : fast ? 'p95 met, overhead missed' : 'overhead met, p95 missed',
  });
}

export async function benchLists(bdb: BenchDb, server: BenchServer, report: Report, opts: ListOptions) {
  const cases: Case[] = [];
  for (const spec of specs) {
    const total = (await bdb.raw<{ n: number }>(`SELECT count(*)::int AS n FROM ${spec.table} WHERE NOT is_delete`))[0]!
      .n;
    const deep = Math.floor((total * 0.9) / 20) * 20;
    // A page past the middle is read from the list's end (http/list-query.ts, REVERSE_FROM): the middle is the
    // page that skips the most entries either way.
    const middle = Math.floor((total * 0.5) / 20) * 20;
    const of = (label: string, body: object, kind: 'list' | 'count'): Case => ({
      name: `${spec.name} (${total.toLocaleString('en-US')} rows): ${label}`,
      path: kind === 'count' ? spec.count : spec.list,
      body,
      kind,
    });
    cases.push(
      of('first page', { offset: 0, limit: 20 }, 'list'),
      of('count', {}, 'count'),
      of(`deep page (offset ${deep.toLocaleString('en-US')})`, { offset: deep, limit: 20 }, 'list'),
      of(`middle page (offset ${middle.toLocaleString('en-US')})`, { offset: middle, limit: 20 }, 'list'),
      ...spec.searches.flatMap((s) => [
        of(`search ${s.label}`, { search_item: s.item, search_text: s.text, offset: 0, limit: 20 }, 'list'),
        of(`count of search ${s.label}`, { search_item: s.item, search_text: s.text }, 'count'),
      ]),
      ...spec.sortable.map((c) => of(`sort ${c} desc`, { sorts: `${c} desc`, offset: 0, limit: 20 }, 'list')),
    );
  }
  const captured: Awaited<ReturnType<typeof capture>>[] = [];
  for (const [i, c] of cases.entries()) {
    const got = await capture(server, c);
    server.bare.set(`c${i}`, got.text);
    captured.push(got);
  }
  // The floor every signed-in call pays before its own query: HTTP, JSON, token check (+ one tiny query).
  server.bare.set(`c${cases.length}`, await call(server, '/api/me', {}));
  // Each case's anchor: its statements replayed as the app runs them (apps/server/src/db/prepared.ts): a
  // list's statements without a search are named prepared statements on PostgreSQL, planned once per
  // connection; a search is planned every time. On PostgreSQL from a process of its own (sqlAnchor); PGlite
  // runs in the server's process anyway.
  const sql = bdb.kind === 'postgres' && bdb.url ? sqlAnchor(bdb.url) : undefined;
  const statements = cases.map((c, i): BareStatement[] => {
    const prepared = bdb.kind === 'postgres' && !(c.body as { search_text?: string }).search_text;
    return captured[i]!.queries.map((q) => ({
      sql: q.sql,
      parameters: q.parameters,
      name: prepared ? nameOf(q.sql) : undefined,
    }));
  });
  // Each turn's untimed first replay, then TURN timed ones (WARMUP untimed ones before the first turn).
  const anchor = async (i: number, warm: boolean): Promise<number[]> => {
    const queries = statements[i]!;
    const [untimed, timed] = warm ? [WARMUP, 0] : [1, TURN];
    if (sql) return sql.replay(i, queries, untimed, timed);
    const replay = async () => {
      for (const q of queries) await bdb.raw(q.sql, q.parameters, q.name);
    };
    return timedRuns(replay, untimed, timed);
  };
  // Each case's bare route runs the statements its anchor replays (server.ts, `bareSql`), then answers its bytes.
  for (const [i, queries] of statements.entries()) server.bareSql.set(`c${i}`, queries);
  const timed = await timeFromClient(
    server,
    [
      ...cases.map((c, i) => ({
        ...c,
        paired: true,
        statements: captured[i]!.queries.length,
        bare: `/__bench/bare-sql/c${i}`,
      })),
      { path: '/api/me', body: {}, paired: false, bare: `/__bench/bare/c${cases.length}` },
    ],
    opts.quick,
    anchor,
  ).finally(() => sql?.end());
  const floor = timed.at(-1)!;
  report.add({
    section: '1 lists',
    name: 'floor of any signed-in call (/api/me: HTTP, token check, its company name)',
    value: `API p50 ${ms(floor.api.p50)} / p95 ${ms(floor.api.p95)} ms`,
    anchor: `bare Fastify p50 ${ms(floor.bare.p50)} / p95 ${ms(floor.bare.p95)} ms (same bytes)`,
  });
  const slow: { name: string; sql: string; raw: number }[] = [];
  for (const [i, c] of cases.entries()) {
    const { queries } = captured[i]!;
    const raw = timed[i]!.anchor!;
    // The bare route's SQL spans of its timed calls: the last as many as the client timed.
    const { bare } = timed[i]!;
    const spans = server.bareSpans.get(`c${i}`) ?? [];
    if (spans.length < bare.n) throw new Error(`the bare route of ${c.name} timed ${spans.length} of ${bare.n} calls`);
    const bareSql = summarize(spans.slice(-bare.n));
    addCase(report, c.name, timed[i]!.api, raw, timed[i]!.inCall, { call: bare, sql: bareSql }, queries.length);
    if (raw.p95 > 20) slow.push({ name: c.name, sql: queries.map((q) => q.sql).join('; '), raw: raw.p95 });
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
  // The framework's ceiling on this machine: the bare route with the vehicles' first page bytes, 20 clients.
  const bare = await runClient<{ rps: number; p99: number; errors: number; total: number }>('cannon.ts', {
    url: `${server.url}/__bench/bare/c0`,
    body: JSON.stringify({ offset: 0, limit: 20 }),
    token: server.token,
    connections: 20,
    duration: opts.duration,
  });
  report.add({
    section: '1 lists',
    name: `bare Fastify route, vehicles first page bytes, 20 concurrent clients (autocannon ${opts.duration} s)`,
    value: `${Math.round(bare.rps)} req/s, p99 ${bare.p99} ms, ${bare.errors} errors`,
    anchor: 'the framework alone on this machine: the ceiling of the lines above',
  });
  for (const s of slow)
    report.note(`slow raw SQL (${s.name}, p95 ${ms(s.raw)} ms): \`${s.sql.replace(/\s+/g, ' ').slice(0, 400)}\``);
}
