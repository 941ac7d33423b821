import { describe, expect, it } from 'vitest';
import { visibleColumns, type ListColumn } from './list-shell';
import { defaultListQuery, isFiltered } from './list-state';

describe('isFiltered (which empty message a list shows)', () => {
  const q = defaultListQuery('car_id');
  it('is false for the plain list, and with deleted rows shown', () => {
    expect(isFiltered(q)).toBe(false);
    expect(isFiltered({ ...q, isShowDelete: true, flags: { isNormal: false } })).toBe(false);
  });
  it('is true for a keyword, a switch such as 正常な車両のみ, or a company', () => {
    expect(isFiltered({ ...q, search_text: '品川' })).toBe(true);
    expect(isFiltered({ ...q, flags: { isNormal: true } })).toBe(true);
    expect(isFiltered({ ...q, companyId: 'tokyo-mobility' })).toBe(true);
  });
});

describe('visibleColumns (the column chooser)', () => {
  const col = (label: string, optional?: 'shown' | 'hidden'): ListColumn<unknown> => ({
    label,
    render: () => null,
    optional,
  });
  const columns = [col('車両ID'), col('車種', 'hidden'), col('最終受信', 'shown')];
  it('shows fixed columns and the optional ones by their default', () => {
    expect(visibleColumns(columns, {}).map((c) => c.label)).toEqual(['車両ID', '最終受信']);
  });
  it('follows the choice made by hand', () => {
    expect(visibleColumns(columns, { 車種: true, 最終受信: false, 車両ID: false }).map((c) => c.label)).toEqual([
      '車両ID',
      '車種',
    ]);
  });
});
