import {
  areaMessages,
  areaTemplateDelete,
  areaTemplateUpdate,
  carApplyAreaTemplate,
  carAvailableAreasUpdate,
  carDisableAreasUpdate,
  carGetAvailableAreas,
  carGetDisableAreas,
  getAreaTemplates,
  type AreaRow,
  type CallRequest,
} from '@fleet/contract';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  accounts,
  companyA,
  createSignedInApp,
  fleet,
  unchecked,
  type FixtureAccount,
  type SignedInApp,
} from './helper.js';

let t: SignedInApp;
beforeAll(async () => {
  t = await createSignedInApp(['staffA', 'managerA', 'adminB', 'superAdmin']);
});
afterAll(() => t?.close());
beforeEach(async () => {
  await t.db.deleteFrom('area_templates').execute();
  await t.db.deleteFrom('areas').execute();
});

const call: SignedInApp['call'] = (...args) => t.call(...args);
const tokyo = { name: '東京駅周辺', lat_min: 35.67, lat_max: 35.69, lng_min: 139.76, lng_max: 139.78 };
const osaka = { name: '大阪', lat_min: 34.6, lat_max: 34.8, lng_min: 135.4, lng_max: 135.6 };

type Template = CallRequest<typeof areaTemplateUpdate>['template'];
const save = (template: Template, who: FixtureAccount) => call(areaTemplateUpdate, { template }, who);
async function saveOk(template: Template, who: FixtureAccount): Promise<string> {
  return (await save(template, who)).body.template_id;
}
const list = async (type: 'available' | 'disable', who: FixtureAccount) =>
  (await call(getAreaTemplates, { type }, who)).body.list;
const remove = (template_id: string, who: FixtureAccount) => call(areaTemplateDelete, { template_id }, who);

describe('area templates', () => {
  it('are created with a server-made id, listed by type and updated by their company', async () => {
    const id = await saveOk({ type: 'available', name: '首都圏', areas: [tokyo] }, 'staffA');
    expect(id).toMatch(/^[A-Za-z0-9_-]{16}$/);
    await saveOk({ type: 'disable', name: '禁止', areas: [osaka] }, 'staffA');
    const [own] = await list('available', 'managerA');
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
    expect(await list('available', 'managerA')).toHaveLength(1);

    expect(
      (await save({ template_id: id, type: 'available', name: '首都圏（広域）', areas: [tokyo, osaka] }, 'managerA'))
        .status,
    ).toBe(200);
    expect((await list('available', 'staffA'))[0]).toMatchObject({
      template_id: id,
      name: '首都圏（広域）',
      areas: [tokyo, { ...osaka }],
    });
  });

  it('are invisible to another company: listing, saving over and deleting one answer 404', async () => {
    const id = await saveOk({ type: 'available', name: 'A社', areas: [tokyo] }, 'staffA');
    expect(await list('available', 'adminB')).toEqual([]);
    const res = await save({ template_id: id, type: 'available', name: '乗っ取り', areas: [osaka] }, 'adminB');
    expect(res.status).toBe(404);
    expect(res.error.message).toBe(areaMessages.templateNotFound);
    expect((await remove(id, 'adminB')).status).toBe(404);
    expect((await call(carApplyAreaTemplate, { car_id: fleet.B.car_id, template_id: id }, 'adminB')).status).toBe(404);
    expect((await list('available', 'staffA'))[0]?.name).toBe('A社');
  });

  it('of the super admin are shared: every company sees and applies them, only the super admin changes them', async () => {
    const shared = await saveOk({ type: 'disable', name: '本部共有', areas: [osaka] }, 'superAdmin');
    const own = await saveOk({ type: 'disable', name: 'A社', areas: [tokyo] }, 'staffA');
    const seen = await list('disable', 'staffA');
    expect(seen.map((x) => [x.name, x.company_id, x.editable])).toEqual([
      ['A社', companyA, true],
      ['本部共有', null, false],
    ]);
    expect((await list('disable', 'adminB')).map((x) => x.template_id)).toEqual([shared]);
    expect((await list('disable', 'superAdmin')).map((x) => x.editable)).toEqual([true, true]);

    const res = await save({ template_id: shared, type: 'disable', name: '変更', areas: [tokyo] }, 'managerA');
    expect(res.status).toBe(403);
    expect(res.error.message).toBe(areaMessages.templateReadOnly);
    expect((await remove(shared, 'staffA')).status).toBe(403);

    // The super admin may change and delete a company's template too.
    expect((await remove(own, 'superAdmin')).status).toBe(200);
    expect((await remove(shared, 'superAdmin')).status).toBe(200);
    expect(await list('disable', 'superAdmin')).toEqual([]);
  });

  it('are deleted by their company', async () => {
    const id = await saveOk({ type: 'available', name: '削除用', areas: [tokyo] }, 'managerA');
    expect((await remove(id, 'staffA')).body).toEqual({ ok: true });
    expect(await list('available', 'staffA')).toEqual([]);
    expect((await remove(id, 'staffA')).status).toBe(404);
  });

  it('are validated with Japanese messages and nothing is saved', async () => {
    const res = await save(unchecked({ type: 'both', name: '', areas: [{ ...tokyo, lat_max: 35 }] }), 'staffA');
    expect(res.status).toBe(400);
    expect(res.error.errors).toEqual({
      'template.type': '入力内容が不正です',
      'template.name': '必須項目です',
      'template.areas.0.lat_max': '最小値より大きい値を入力してください',
    });
    expect((await save({ type: 'available', name: '空', areas: [] }, 'staffA')).error.errors).toEqual({
      'template.areas': areaMessages.areasRequired,
    });
    expect(await t.db.selectFrom('area_templates').select('template_id').execute()).toEqual([]);
  });

  it("apply to a vehicle: the template's kind of list is replaced by its areas", async () => {
    await call(carAvailableAreasUpdate, { car_id: fleet.A.car_id, available_areas: [osaka] }, 'staffA');
    await call(carDisableAreasUpdate, { car_id: fleet.A.car_id, disable_areas: [osaka] }, 'staffA');
    const id = await saveOk({ type: 'available', name: '二拠点', areas: [tokyo, { ...osaka, name: '' }] }, 'staffA');
    const res = (await call(carApplyAreaTemplate, { car_id: fleet.A.car_id, template_id: id }, 'staffA')).body;
    expect(res).toMatchObject({ type: 'available', count: 2 });
    const strip = (l: AreaRow[]) => l.map(({ area_id: _id, ...a }) => a);
    const available = (await call(carGetAvailableAreas, { car_id: fleet.A.car_id }, 'staffA')).body;
    expect(strip(available.available_areas)).toEqual([tokyo, { ...osaka, name: '' }]);
    const disable = (await call(carGetDisableAreas, { car_id: fleet.A.car_id }, 'staffA')).body;
    expect(strip(disable.disable_areas)).toEqual([osaka]);
    // Another company's vehicle stays out of reach even with a visible template.
    expect((await call(carApplyAreaTemplate, { car_id: fleet.B.car_id, template_id: id }, 'staffA')).status).toBe(404);
  });
});
