import { describe, expect, it } from 'vitest';
import {
  CarUserForm,
  CompanyForm,
  fieldErrors,
  fieldMessages as f,
  normalizeDateText,
  normalizePhone,
} from './index.js';
import { parseDateBound } from './telemetry.js';
import { jstDayField } from './trips.js';
import { executeAt } from './engine.js';

describe('normalizeDateText', () => {
  it('reads slashes, full-width digits, one-digit parts and 年月日 as YYYY-MM-DD', () => {
    for (const typed of [
      '1985/04/12',
      '1985/4/12',
      '１９８５／０４／１２',
      '１９８５－４－１２',
      '1985.4.12',
      '1985年4月12日',
      ' 1985-04-12 ',
    ])
      expect(normalizeDateText(typed), typed).toBe('1985-04-12');
  });
  it('keeps a time, padding a one-digit hour', () => {
    expect(normalizeDateText('2026/11/3 9:05')).toBe('2026-11-03 09:05');
    expect(normalizeDateText('２０２６／１１／０３　１０：１５')).toBe('2026-11-03 10:15');
    expect(normalizeDateText('2026-11-03T10:15:30')).toBe('2026-11-03 10:15:30');
  });
  it('leaves instants with a zone and nonsense for the caller to judge', () => {
    expect(normalizeDateText('2026-11-03T01:15:00.000Z')).toBe('2026-11-03T01:15:00.000Z');
    expect(normalizeDateText('昨日')).toBe('昨日');
  });
});

describe('normalizePhone', () => {
  it('gives one stored form for the ways a number is typed', () => {
    for (const typed of [
      '090-1234-5678',
      '09012345678',
      '０９０－１２３４－５６７８',
      '090 1234 5678',
      '090ー1234ー5678',
      '(090)1234-5678',
      '０９０１２３４５６７８',
    ])
      expect(normalizePhone(typed), typed).toBe('090-1234-5678');
    expect(normalizePhone('03 1234 5678')).toBe('03-1234-5678');
    expect(normalizePhone('＋81 3-1234-5678')).toBe('+81-3-1234-5678');
    expect(normalizePhone('0312345678')).toBe('0312345678');
  });
  it('leaves what is not a phone number for the check to refuse', () => {
    expect(normalizePhone('電話なし')).toBe('電話なし');
  });
});

describe('forgiving fields', () => {
  const user = { user_id: 'user-0001', first_name: '山田', name: '太郎' };
  const company = { company_id: 'company-1', company_name: '株式会社テスト' };
  it('stores a birthday typed with slashes or full-width digits as YYYY-MM-DD', () => {
    expect(CarUserForm.parse({ ...user, birthday: '1985/4/12' }).birthday).toBe('1985-04-12');
    expect(CarUserForm.parse({ ...user, birthday: '１９８５／０４／１２' }).birthday).toBe('1985-04-12');
    expect(fieldErrors(CarUserForm.safeParse({ ...user, birthday: '1985/02/30' }).error!)).toEqual({
      birthday: '日付の形式が不正です（YYYY-MM-DD）',
    });
  });
  it('stores phone numbers normalised, and the message shows an example', () => {
    expect(CarUserForm.parse({ ...user, work_phone: '０９０ １２３４ ５６７８' }).work_phone).toBe('090-1234-5678');
    expect(CompanyForm.parse({ ...company, phone: '０３－１２３４－５６７８' }).phone).toBe('03-1234-5678');
    expect(f.phone).toBe('電話番号の形式が不正です（例: 090-1234-5678）');
    for (const bad of ['090-12a4-5678', '12345', '0'.repeat(21)])
      expect(CompanyForm.safeParse({ ...company, phone: bad }).success, bad).toBe(false);
  });
  it('reads date bounds, report days and command times typed with slashes and full-width digits', () => {
    expect(parseDateBound('２０２６／１１／２３', 'from')).toBe('2026-11-22T15:00:00.000Z');
    expect(parseDateBound('2026/11/3 9:05', 'from')).toBe('2026-11-03T00:05:00.000Z');
    expect(jstDayField().parse('２０２６/１１/２３')).toBe('2026-11-23');
    const now = () => Date.parse('2026-11-23T00:00:00Z');
    expect(executeAt(now).parse('2026/11/23 10:15')).toBe('2026-11-23T01:15:00.000Z');
  });
});
