import { describe, expect, it } from 'vitest';
import { menuFor } from './side-menu';

const labels = (actor: { account_id: string; role: number; company_id: string | null }) =>
  menuFor(actor).flatMap((g) => g.items.map((i) => i.label));

describe('menuFor (docs/product.md §2, §6)', () => {
  it('leaves the group screen out for a manager limited to groups (he may not change them)', () => {
    const manager = { account_id: 'm', role: 1, company_id: 'c' };
    const entries = (groupsLimited: boolean) =>
      menuFor(manager, { groupsLimited }).flatMap((g) => g.items.map((i) => i.label));
    expect(entries(false)).toContain('拠点・部署');
    expect(entries(true)).not.toContain('拠点・部署');
    expect(entries(true)).toContain('ゾーン');
  });

  it('gives the super admin every entry', () => {
    expect(labels({ account_id: 'a', role: 0, company_id: null })).toEqual([
      '車両一覧',
      '車両マップ',
      'レポート',
      'ゾーン',
      '拠点・部署',
      'アラート',
      '車両登録',
      '新規登録ウィザード',
      '顧客一覧',
      '顧客登録',
      'GPS端末一覧',
      'GPS端末登録',
      '加盟店一覧',
      '加盟店登録',
      '管理アカウント一覧',
      '管理アカウント登録',
      '通知設定',
      '通知履歴',
      'Webhook設定',
      '運行判定の設定',
    ]);
  });
  it('gives managers (roles 0 and 1 of a company) the account entries but no registration, and company admins the webhooks and the trip rule', () => {
    expect(labels({ account_id: 'a', role: 0, company_id: 'c' })).toEqual([
      '車両一覧',
      '車両マップ',
      'レポート',
      'ゾーン',
      '拠点・部署',
      'アラート',
      '顧客一覧',
      '管理アカウント一覧',
      '管理アカウント登録',
      '通知設定',
      '通知履歴',
      'Webhook設定',
      '運行判定の設定',
    ]);
    expect(labels({ account_id: 'a', role: 1, company_id: 'c' })).toEqual([
      '車両一覧',
      '車両マップ',
      'レポート',
      'ゾーン',
      '拠点・部署',
      'アラート',
      '顧客一覧',
      '管理アカウント一覧',
      '管理アカウント登録',
      '通知設定',
      '通知履歴',
    ]);
  });
  it('gives a common account the lists, the reports and notification settings only', () => {
    expect(labels({ account_id: 'a', role: 2, company_id: 'c' })).toEqual([
      '車両一覧',
      '車両マップ',
      'レポート',
      'ゾーン',
      'アラート',
      '顧客一覧',
      '通知設定',
    ]);
  });
});
