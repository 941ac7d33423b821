import * as contract from '@fleet/contract';
import { ApiError, DEVICE_BATCH_PATH, LIVE_PATH, LOG_EXPORT_PATH, LogExportQuery, type Call } from '@fleet/contract';
import fc from 'fast-check';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accounts } from '../helper.js';
import { badAuthorization, bodyFor, junk, rawRequest } from './arbitraries.js';
import { matrix } from './matrix.js';
import { JAPANESE, createWorld, installChangeCounter, type SignedInRole, type World } from './world.js';

/**
 * Property-based bad input against every console route: generated from the
 * contract's request schemas and beyond (see arbitraries.ts), sent as each
 * role. Whatever arrives: never a 5xx; a refusal has the error shape with a
 * Japanese message and leaves the stored data untouched.
 *
 * FUZZ_RUNS sets the cases per route (default 100); FUZZ_SEED replays a run.
 */
export const FUZZ_RUNS = Number(process.env.FUZZ_RUNS ?? 100);
const seed = process.env.FUZZ_SEED ? { seed: Number(process.env.FUZZ_SEED) } : {};

/** The contract's calls by path. */
const calls = new Map<string, Call>(
  (Object.values(contract) as unknown[])
    .filter((v): v is Call => !!v && typeof v === 'object' && 'path' in v && 'request' in v && 'response' in v)
    .map((c) => [c.path, c]),
);

export type FuzzRequest = { kind: 'json'; body: unknown } | { kind: 'raw'; contentType: string; payload: string };
type Who = SignedInRole | 'anonymous';

const requestArb = (schema: Parameters<typeof bodyFor>[0]): fc.Arbitrary<FuzzRequest> =>
  fc.oneof(
    { weight: 9, arbitrary: bodyFor(schema).map((body) => ({ kind: 'json' as const, body })) },
    { weight: 1, arbitrary: rawRequest.map((r) => ({ kind: 'raw' as const, ...r })) },
  );
const whoArb: fc.Arbitrary<Who> = fc.constantFrom(
  'superAdmin',
  'superAdmin',
  'superAdmin',
  'adminA',
  'managerA',
  'staffA',
  'anonymous',
);

/** What a refusal must look like. */
export function checkRefusal(res: LightMyRequestResponse, label: string) {
  expect(res.statusCode, `${label}: ${res.body.slice(0, 300)}`).toBeLessThan(500);
  if (res.statusCode < 400 || res.raw.req.method === 'HEAD') return;
  expect(String(res.headers['content-type']), label).toMatch(/^application\/json/);
  const body = ApiError.strict().safeParse(JSON.parse(res.body));
  expect(body.success, `${label}: ${res.body.slice(0, 300)}`).toBe(true);
  expect(body.data!.message, label).toMatch(JAPANESE);
}

/** The fixture accounts as they were, with fresh sessions: a route's cases may have deleted or re-roled them. */
async function restoreAccounts(w: World) {
  for (const a of Object.values(accounts))
    await w.db
      .updateTable('accounts')
      .set({ role: a.role, company_id: a.company_id, is_delete: false })
      .where('account_id', '=', a.account_id)
      .execute();
  for (const who of Object.keys(w.tokens) as SignedInRole[]) w.tokens[who] = await w.freshToken(who);
}

const describeInput = (r: FuzzRequest) =>
  r.kind === 'json' ? JSON.stringify(r.body)?.slice(0, 300) : `${r.contentType}: ${r.payload.slice(0, 200)}`;

/** Registers the property tests of every `part`-th console route (of `parts`), so files can run side by side. */
export function fuzzConsoleRoutes(part: number, parts: number) {
  let w: World;
  let writes: () => Promise<number>;
  beforeAll(async () => {
    w = await createWorld();
    writes = await installChangeCounter(w.db);
  });
  afterAll(() => w?.t.close());

  const send = async (route: string, who: Who, r: FuzzRequest) => {
    const [method, url] = route.split(' ') as ['GET' | 'HEAD' | 'POST', string];
    const headers: Record<string, string> = who === 'anonymous' ? {} : { authorization: `Bearer ${w.tokens[who]}` };
    if (method !== 'POST') {
      const query =
        r.kind === 'json' && r.body && typeof r.body === 'object' && !Array.isArray(r.body)
          ? r.body
          : { junk: r.kind === 'raw' ? r.payload : (JSON.stringify(r.body) ?? '') };
      const flat = Object.fromEntries(
        Object.entries(query).map(([k, v]) => [k, typeof v === 'string' ? v : (JSON.stringify(v) ?? '')]),
      );
      return w.app.inject({ method, url, query: flat, headers });
    }
    if (r.kind === 'raw')
      return w.app.inject({
        method,
        url,
        payload: r.payload,
        headers: { ...headers, ...(r.contentType ? { 'content-type': r.contentType } : {}) },
      });
    return w.app.inject({
      method,
      url,
      payload: JSON.stringify(r.body) ?? 'null',
      headers: { ...headers, 'content-type': 'application/json' },
    });
  };

  // The console's calls (contract schemas), the export and the stream; terminal, probe and docs routes
  // have fuzz tests of their own or take no input.
  const fuzzable = (route: string) => {
    const url = route.split(' ')[1]!;
    return url === LIVE_PATH || url === LOG_EXPORT_PATH || calls.has(url);
  };
  const routes = matrix
    .map((r) => r.route)
    .filter((route, i) => i % parts === part && !route.endsWith(DEVICE_BATCH_PATH) && fuzzable(route));
  describe(`bad input, part ${part + 1} of ${parts}`, () => {
    it.each(routes)(
      `%s: ${FUZZ_RUNS} generated requests, never a 5xx, refusals change nothing`,
      async (route) => {
        const url = route.split(' ')[1]!;
        if (url === LIVE_PATH) {
          // A valid session opens a never-ending stream; what can be fuzzed is how the stream is opened.
          const arb = fc.record({
            ticket: fc.option(
              fc.oneof(
                fc.string({ maxLength: 300 }),
                junk.map((j) => JSON.stringify(j) ?? ''),
              ),
            ),
            authorization: fc.option(badAuthorization),
          });
          await fc.assert(
            fc.asyncProperty(arb, async ({ ticket, authorization }) => {
              const res = await w.app.inject({
                method: 'GET',
                url,
                query: ticket === null ? {} : { ticket },
                headers: authorization === null ? {} : { authorization },
              });
              expect(res.statusCode).toBe(401);
              checkRefusal(res, route);
            }),
            { numRuns: FUZZ_RUNS, ...seed },
          );
          return;
        }
        const statuses: Record<number, number> = {};
        const schema = url === LOG_EXPORT_PATH ? LogExportQuery : calls.get(url)?.request;
        expect(schema, `${route}: no contract call`).toBeDefined();
        await fc.assert(
          fc.asyncProperty(whoArb, requestArb(schema!), async (who, r) => {
            const before = await writes();
            const res = await send(route, who, r);
            const label = `${route} as ${who} with ${describeInput(r)}`;
            statuses[res.statusCode] = (statuses[res.statusCode] ?? 0) + 1;
            checkRefusal(res, label);
            if (res.statusCode >= 400)
              expect(await writes(), `${label}: refused (${res.statusCode}) but wrote`).toBe(before);
            // A call that ended or changed the session (logout, own password) must not starve the next cases.
            if (res.statusCode === 401 && who !== 'anonymous') w.tokens[who] = await w.freshToken(who);
          }),
          { numRuns: FUZZ_RUNS, ...seed },
        );
        if (process.env.FUZZ_STATS) console.log(route, JSON.stringify(statuses));
        await restoreAccounts(w);
      },
      300_000,
    );
  });
}
