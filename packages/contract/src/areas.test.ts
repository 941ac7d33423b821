import { describe, expect, it } from 'vitest';
import { AREA_LIST_MAX, AreaList, areaMessages, AreaTemplateForm } from './areas.js';
import { fieldErrors } from './errors.js';

const area = { name: '本社周辺', lat_min: 35.6, lat_max: 35.7, lng_min: 139.7, lng_max: 139.8 };
const errorsOf = (r: { success: boolean; error?: unknown }) => (r.success ? {} : fieldErrors(r.error as never));

describe('area lists', () => {
  it('accepts rectangles with min < max, numbers typed as text, and no name', () => {
    const r = AreaList.parse([area, { lat_min: '35.1', lat_max: '35.2', lng_min: '139', lng_max: '139.5' }]);
    expect(r[1]).toEqual({ name: '', lat_min: 35.1, lat_max: 35.2, lng_min: 139, lng_max: 139.5 });
  });
  it('refuses min ≥ max, out-of-range and missing bounds with Japanese messages per field', () => {
    const r = AreaList.safeParse([
      { ...area, lat_max: 35.6 },
      { ...area, lng_min: 181 },
      { ...area, lat_min: '' },
    ]);
    expect(errorsOf(r)).toEqual({
      '0.lat_max': '最小値より大きい値を入力してください',
      '1.lng_min': '経度は-180〜180の範囲で入力してください',
      '2.lat_min': '必須項目です',
    });
  });
  it(`holds at most ${AREA_LIST_MAX} areas`, () => {
    expect(errorsOf(AreaList.safeParse(Array.from({ length: AREA_LIST_MAX + 1 }, () => area)))).toEqual({
      _: areaMessages.tooManyAreas,
    });
    expect(AreaList.parse([])).toEqual([]);
  });
});

describe('area templates', () => {
  it('need a type, a name and at least one area', () => {
    const r = AreaTemplateForm.safeParse({ type: 'other', name: ' ', areas: [] });
    expect(errorsOf(r)).toEqual({
      type: '入力内容が不正です',
      name: '必須項目です',
      areas: areaMessages.areasRequired,
    });
  });
});
