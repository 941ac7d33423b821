import { areaMessages, type AreaRow, type AreaTemplate } from '@fleet/contract';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ok } from './engine-support.js';
import { accounts, companyA, createTestApp, fleet, login, post, seedFixtures, type TestApp } from './helper.js';

let t: TestApp;
const token: Record<'staffA' | 'managerA' | 'adminB' | 'superAdmin', string> = {
  staffA: '',
  managerA: '',
  adminB: '',
  superAdmin: '',
};
beforeAll(async () => {
  t = await createTestApp();
  await seedFixtures(t.db);
  for (const who of Object.keys(token) as (keyof typeof token)[]) token[who] = await login(t.app, who);
});
afterAll(() => t?.close());
beforeEach(async () => {
  await t.db.deleteFrom('area_templates').execute();
  await t.db.deleteFrom('areas').execute();
});

const tokyo = { name: '東京駅周辺', lat_min: 35.67, lat_max: 35.69, lng_min: 139.76, lng_max: 139.78 };
const osaka = { name: '大阪', lat_min: 34.6, lat_max: 34.8, lng_min: 135.4, lng_max: 135.6 };

const save = (template: Record<string, unknown>, who: string) =>
  post(t.app, '/api/area_template_update', { template }, who);
async function saveOk(template: Record<string, unknown>, who: string): Promise<string> {
  return (await ok<{ template_id: string }>(save(template, who))).template_id;
}
const list = async (type: 'available' | 'disable', who: string) =>
  (await ok<{ list: AreaTemplate[] }>(post(t.app, '/api/get_area_templates', { type }, who))).list;

describe('area templates', () => {
  it('are created with a server-made id, listed by type and updated by their company', async () => {
    const id = await saveOk({ type: 'available', name: '首都圏', areas: [tokyo] }, token.staffA);
    expect(id).toMatch(/^[A-Za-z0-9_-]{16}$/);
    await saveOk({ type: 'disable', name: '禁止', areas: [osaka] }, token.staffA);
    const [own] = await list('available', token.managerA);
    expect(own).toMatchObject({
      template_id: id,
      type: 'available',
      name: '首都圏',
      company_id: companyA,
      areas: [tokyo],
      editable: true,
      created_by: 'staff-a',
      created_by_name: accounts.staffA.name,
    });
    expect(await list('available', token.managerA)).toHaveLength(1);

    expect(
      (
        await save(
          { template_id: id, type: 'available', name: '首都圏（広域）', areas: [tokyo, osaka] },
          token.managerA,
        )
      ).statusCode,
    ).toBe(200);
    expect((await list('available', token.staffA))[0]).toMatchObject({
      template_id: id,
      name: '首都圏（広域）',
      areas: [tokyo, { ...osaka }],
    });
  });

  it('are invisible to another company: listing, saving over and deleting one answer 404', async () => {
    const id = await saveOk({ type: 'available', name: 'A社', areas: [tokyo] }, token.staffA);
    expect(await list('available', token.adminB)).toEqual([]);
    const res = await save({ template_id: id, type: 'available', name: '乗っ取り', areas: [osaka] }, token.adminB);
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBe(areaMessages.templateNotFound);
    expect((await post(t.app, '/api/area_template_delete', { template_id: id }, token.adminB)).statusCode).toBe(404);
    expect(
      (await post(t.app, '/api/car_apply_area_template', { car_id: fleet.B.car_id, template_id: id }, token.adminB))
        .statusCode,
    ).toBe(404);
    expect((await list('available', token.staffA))[0]?.name).toBe('A社');
  });

  it('of the super admin are shared: every company sees and applies them, only the super admin changes them', async () => {
    const shared = await saveOk({ type: 'disable', name: '本部共有', areas: [osaka] }, token.superAdmin);
    const own = await saveOk({ type: 'disable', name: 'A社', areas: [tokyo] }, token.staffA);
    const seen = await list('disable', token.staffA);
    expect(seen.map((x) => [x.name, x.company_id, x.editable])).toEqual([
      ['A社', companyA, true],
      ['本部共有', null, false],
    ]);
    expect((await list('disable', token.adminB)).map((x) => x.template_id)).toEqual([shared]);
    expect((await list('disable', token.superAdmin)).map((x) => x.editable)).toEqual([true, true]);

    const res = await save({ template_id: shared, type: 'disable', name: '変更', areas: [tokyo] }, token.managerA);
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe(areaMessages.templateReadOnly);
    expect((await post(t.app, '/api/area_template_delete', { template_id: shared }, token.staffA)).statusCode).toBe(
      403,
    );

    // The super admin may change and delete a company's template too.
    expect((await post(t.app, '/api/area_template_delete', { template_id: own }, token.superAdmin)).statusCode).toBe(
      200,
    );
    expect((await post(t.app, '/api/area_template_delete', { template_id: shared }, token.superAdmin)).statusCode).toBe(
      200,
    );
    expect(await list('disable', token.superAdmin)).toEqual([]);
  });

  it('are deleted by their company', async () => {
    const id = await saveOk({ type: 'available', name: '削除用', areas: [tokyo] }, token.managerA);
    expect((await post(t.app, '/api/area_template_delete', { template_id: id }, token.staffA)).json()).toEqual({
      ok: true,
    });
    expect(await list('available', token.staffA)).toEqual([]);
    expect((await post(t.app, '/api/area_template_delete', { template_id: id }, token.staffA)).statusCode).toBe(404);
  });

  it('are validated with Japanese messages and nothing is saved', async () => {
    const res = await save({ type: 'both', name: '', areas: [{ ...tokyo, lat_max: 35 }] }, token.staffA);
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual({
      'template.type': '入力内容が不正です',
      'template.name': '必須項目です',
      'template.areas.0.lat_max': '最小値より大きい値を入力してください',
    });
    expect((await save({ type: 'available', name: '空', areas: [] }, token.staffA)).json().errors).toEqual({
      'template.areas': areaMessages.areasRequired,
    });
    expect(await t.db.selectFrom('area_templates').select('template_id').execute()).toEqual([]);
  });

  it("apply to a vehicle: the template's kind of list is replaced by its areas", async () => {
    await post(
      t.app,
      '/api/car_available_areas_update',
      { car_id: fleet.A.car_id, available_areas: [osaka] },
      token.staffA,
    );
    await post(
      t.app,
      '/api/car_disable_areas_update',
      { car_id: fleet.A.car_id, disable_areas: [osaka] },
      token.staffA,
    );
    const id = await saveOk(
      { type: 'available', name: '二拠点', areas: [tokyo, { ...osaka, name: '' }] },
      token.staffA,
    );
    const res = await ok<{ type: string; count: number }>(
      post(t.app, '/api/car_apply_area_template', { car_id: fleet.A.car_id, template_id: id }, token.staffA),
    );
    expect(res).toMatchObject({ type: 'available', count: 2 });
    const strip = (l: AreaRow[]) => l.map(({ area_id: _id, ...a }) => a);
    const available = await ok<{ available_areas: AreaRow[] }>(
      post(t.app, '/api/car_get_available_areas', { car_id: fleet.A.car_id }, token.staffA),
    );
    expect(strip(available.available_areas)).toEqual([tokyo, { ...osaka, name: '' }]);
    const disable = await ok<{ disable_areas: AreaRow[] }>(
      post(t.app, '/api/car_get_disable_areas', { car_id: fleet.A.car_id }, token.staffA),
    );
    expect(strip(disable.disable_areas)).toEqual([osaka]);
    // Another company's vehicle stays out of reach even with a visible template.
    expect(
      (await post(t.app, '/api/car_apply_area_template', { car_id: fleet.B.car_id, template_id: id }, token.staffA))
        .statusCode,
    ).toBe(404);
  });
});
