import { accountGroupsUpdate, carGetDetail, carGroupsUpdate, groupAdd } from '@fleet/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callAs } from '../helper.js';
import { expected, matrix, type CellRequest, type MatrixRow } from './matrix.js';
import { accountIdOf, createWorld, fixtureOf, type World } from './world.js';

/**
 * A group-limited account (docs/groups.md) gets 404 for a vehicle of its own company outside its groups, on
 * every call that names a vehicle: the table is the authorization matrix itself (its request for an own
 * record, as managerA), so a new call with a matrix row is covered here without a line more. A call the
 * role may not make about another company's vehicle either (the matrix's cell for it is 403) stays 403.
 */
let w: World;
const vehicleKeys = ['car_id', 'car_data_id', 'car_device_id', 'car_ids'];
const namesVehicle = (req: CellRequest) => {
  const body = req.body as Record<string, unknown> | undefined;
  const info = body?.info as Record<string, unknown> | undefined;
  return [body, info, req.query].some((o) => o && vehicleKeys.some((k) => o[k] !== undefined));
};

beforeAll(async () => {
  w = await createWorld();
  // managerA is limited to a branch; car-a is in it at first (the control), then taken out.
  const group = await callAs(w.app, w.tokens.adminA, groupAdd, { info: { name: '横浜営業所' } });
  const group_id = group.body.group_id;
  await callAs(w.app, w.tokens.adminA, carGroupsUpdate, { car_id: fixtureOf('own').car_id, group_ids: [group_id] });
  const limit = await callAs(w.app, w.tokens.adminA, accountGroupsUpdate, {
    account_id: accountIdOf('managerA'),
    group_ids: [group_id],
  });
  expect(limit.status).toBe(200);
});
afterAll(() => w?.t.close());

async function send(row: MatrixRow, req: CellRequest, token: string) {
  const [method, url] = row.route.split(' ') as ['GET' | 'HEAD' | 'POST', string];
  return w.app.inject({
    method,
    url,
    ...(req.query ? { query: req.query } : {}),
    ...(method === 'POST' ? { payload: (req.body ?? {}) as object } : {}),
    headers: { authorization: `Bearer ${token}` },
  });
}

describe('a group-limited account', () => {
  it('sees its group’s vehicle (the control)', async () => {
    const res = await callAs(w.app, w.tokens.managerA, carGetDetail, { car_id: fixtureOf('own').car_id });
    expect(res.status).toBe(200);
    // Out of the group from here on.
    await callAs(w.app, w.tokens.adminA, carGroupsUpdate, { car_id: fixtureOf('own').car_id, group_ids: [] });
    expect((await callAs(w.app, w.tokens.managerA, carGetDetail, { car_id: fixtureOf('own').car_id })).status).toBe(
      404,
    );
  });

  const rows = matrix.filter((r) => !r.stream && !r.public);
  it.each(rows.map((r) => [r.route, r] as const))(
    '%s: a vehicle named outside its groups is not found',
    async (_route, row) => {
      const req = await row.request(w, 'own', 'managerA');
      if (!namesVehicle(req)) return;
      const [, other] = expected(row.expect, 'managerA');
      const res = await send(row, req, w.tokens.managerA);
      expect(res.statusCode, res.body).toBe(other === 403 ? 403 : 404);
    },
  );

  it('covers the calls that take a vehicle', async () => {
    let covered = 0;
    for (const row of rows) if (namesVehicle(await row.request(w, 'own', 'managerA'))) covered++;
    expect(covered).toBeGreaterThan(30);
  });
});
