import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { carEngineStateReserve, carEngineStateReserveRequest } from '@fleet/contract';
import { expected, matrix, route, type CellRequest, type MatrixRow } from './matrix.js';
import {
  COMPANY_B_MARKERS,
  createWorld,
  expectErrorShape,
  registeredRoutes,
  roles,
  targets,
  type Role,
  type Target,
  type World,
} from './world.js';

/**
 * Walks every cell of matrix.ts against the real app: each route, as each
 * role, about a record of its own company and of another. Also checks that
 * every refusal has the error shape and that no company-A user's successful
 * answer mentions anything of company B.
 */
let w: World;
let port: number;
beforeAll(async () => {
  w = await createWorld();
  // Server-sent events never end, so the stream rows go over a real socket and stop after the first event.
  await w.app.listen({ port: 0, host: '127.0.0.1' });
  port = (w.app.server.address() as AddressInfo).port;
});
afterAll(() => w?.t.close());

interface Answer {
  statusCode: number;
  body: string;
  headers: Record<string, unknown>;
}

let ip = 0;
/** Each cell from its own address, so the login and reset limits of one never touch another. */
const nextIp = () => `10.77.${Math.floor(++ip / 250)}.${(ip % 250) + 1}`;

async function inject(row: MatrixRow, req: CellRequest, token: string | undefined): Promise<Answer> {
  const [method, url] = row.route.split(' ') as ['GET' | 'HEAD' | 'POST', string];
  const res = await w.app.inject({
    method,
    url,
    remoteAddress: nextIp(),
    ...(req.query ? { query: req.query } : {}),
    ...(method === 'POST' ? { payload: (req.body ?? {}) as object } : {}),
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
  return { statusCode: res.statusCode, body: res.body, headers: res.headers };
}

/** Opens the stream, reads up to the first event (or the end), then hangs up. */
function stream(row: MatrixRow, token: string | undefined): Promise<Answer> {
  const [method, path] = row.route.split(' ') as ['GET', string];
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: '127.0.0.1', port, method, path, headers: token ? { authorization: `Bearer ${token}` } : {} },
      (res) => {
        let body = '';
        const done = () => {
          req.destroy();
          resolve({ statusCode: res.statusCode ?? 0, body, headers: res.headers });
        };
        if (res.statusCode !== 200) return void res.on('data', (c: Buffer) => (body += String(c))).on('end', done);
        res.on('data', (chunk: Buffer) => {
          body += String(chunk);
          if (/event: snapshot\ndata: .*\n\n/.test(body)) done();
        });
        res.on('end', done);
      },
    );
    req.setTimeout(10_000, () => req.destroy(new Error(`${row.route}: no event within 10 s`)));
    req.on('error', reject);
    req.end();
  });
}

async function call(row: MatrixRow, role: Role, target: Target): Promise<Answer> {
  const req = await row.request(w, target, role);
  const token = role === 'anonymous' ? undefined : (req.token ?? w.tokens[role]);
  return row.stream ? stream(row, token) : inject(row, req, token);
}

describe('the authorization matrix', () => {
  it('has exactly one row for every registered route', () => {
    const registered = registeredRoutes(w.app);
    const rows = matrix.map((r) => r.route);
    expect(registered.length).toBeGreaterThan(80);
    expect(
      registered.filter((r) => !rows.includes(r)),
      'registered routes without a row in matrix.ts',
    ).toEqual([]);
    expect(
      rows.filter((r) => !registered.includes(r)),
      'rows of matrix.ts for routes that do not exist',
    ).toEqual([]);
    expect(new Set(rows).size, 'one row per route').toBe(rows.length);
  });

  it.each(matrix.map((row) => [row.route, row] as const))(
    '%s',
    async (_route, row) => {
      const cells = roles.flatMap((role) =>
        targets.map((target, i) => ({ role, target, want: expected(row.expect, role)[i]! })),
      );
      const answers: Answer[] = [];
      if (row.serial) for (const c of cells) answers.push(await call(row, c.role, c.target));
      else answers.push(...(await Promise.all(cells.map((c) => call(row, c.role, c.target)))));
      const got = cells.map((c, i) => `${c.role}/${c.target}: ${answers[i]!.statusCode}`);
      const want = cells.map((c) => `${c.role}/${c.target}: ${c.want}`);
      expect(got, answers.map((a) => a.body.slice(0, 200)).join('\n')).toEqual(want);

      cells.forEach((c, i) => {
        const res = answers[i]!;
        const label = `${row.route} ${c.role}/${c.target}`;
        if (row.route.startsWith('HEAD ')) expect(res.body, `${label}: HEAD has no body`).toBe('');
        else if (res.statusCode >= 400) expectErrorShape(res, label);
        else if (!row.public && c.role !== 'superAdmin' && c.role !== 'anonymous')
          expect(res.body, `${label} leaks company B`).not.toMatch(COMPANY_B_MARKERS);
      });
      // A row's twelve cells may each run a full-cost scrypt (sign-in, reset by link): minutes on a loaded machine.
    },
    120_000,
  );
});

/**
 * The step-up dimension (docs/engine-control.md): a prohibit, now or scheduled, needs the
 * password re-entered within minutes; a permit does not. Sessions here have not stepped up. A role
 * without the engine-control right is refused for that first; another company's vehicle is not found.
 */
describe('the step-up before a prohibit', () => {
  const inAnHour = () => new Date(Date.now() + 3_600_000).toISOString();
  const calls = {
    now: async (target: Target, cmd: 0 | 1) => ({
      route: route(carEngineStateReserve),
      body: { car_data_id: (await w.fresh.car(target)).car_data_id, cmd_info: { cmd } },
    }),
    scheduled: async (target: Target, cmd: 0 | 1) => ({
      route: route(carEngineStateReserveRequest),
      body: { request: { car_id: (await w.fresh.car(target)).car_id, cmd, execute_at: inAnHour() } },
    }),
  };
  const signedIn = roles.filter((r) => r !== 'anonymous');
  /** Without a step-up: [prohibit own, prohibit other, permit own, permit other]. */
  const want: Record<(typeof signedIn)[number], readonly [number, number, number, number]> = {
    superAdmin: [403, 403, 200, 200],
    adminA: [403, 404, 200, 404],
    managerA: [403, 404, 200, 404],
    staffA: [403, 404, 403, 404],
    operatorA: [403, 404, 200, 404],
  };

  it.each(Object.keys(calls) as (keyof typeof calls)[])('%s', async (kind) => {
    const cells = signedIn.flatMap((role) =>
      ([1, 0] as const).flatMap((cmd) => targets.map((target) => ({ role, cmd, target }))),
    );
    const answers = await Promise.all(
      cells.map(async (c) => {
        const { route, body } = await calls[kind](c.target, c.cmd);
        return inject(
          { route, expect: {} as MatrixRow['expect'], request: () => ({}) },
          { body },
          await w.plainToken(c.role),
        );
      }),
    );
    const got = cells.map((c, i) => `${c.role} cmd ${c.cmd} ${c.target}: ${answers[i]!.statusCode}`);
    const wanted = cells.map((c, i) => `${c.role} cmd ${c.cmd} ${c.target}: ${want[c.role][i % 4]}`);
    expect(got, answers.map((a) => a.body.slice(0, 160)).join('\n')).toEqual(wanted);
    cells.forEach((c, i) => {
      const res = answers[i]!;
      if (res.statusCode >= 400) expectErrorShape(res, `${kind} ${c.role}`);
      // Only a prohibit of a vehicle one may control asks for the step-up; everything else keeps its reason.
      const mayControl = c.role !== 'staffA' && (c.target === 'own' || c.role === 'superAdmin');
      const code = (JSON.parse(res.body) as { code?: string }).code;
      if (c.cmd === 1 && mayControl) expect(code, `${kind} ${c.role} ${c.target}`).toBe('STEP_UP_REQUIRED');
      else expect(code, `${kind} ${c.role} cmd ${c.cmd} ${c.target}`).not.toBe('STEP_UP_REQUIRED');
    });
  });
});
