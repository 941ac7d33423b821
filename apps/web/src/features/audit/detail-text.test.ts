import { describe, expect, it } from 'vitest';
import { detailText } from './detail-text';

describe('detailText', () => {
  it('reads a detail in Japanese with Japan times, never JSON', () => {
    expect(detailText({ until: '2026-11-29T05:10:00.000Z', with: 'login' })).toBe(
      '有効期限: 2026/11/29 14:10、方法: ログイン時',
    );
    expect(detailText({ role: 1, company_id: 'c-1', password_changed: false })).toBe(
      '権限: マネージャー、加盟店ID: c-1、パスワード変更: なし',
    );
    expect(
      detailText({
        car_data_id: '351',
        cmd_type: 'set_engine_boot_permission',
        cmd_info: { cmd: 1, expires_in_minutes: 60 },
      }),
    ).toBe('IMEI: 351、コマンド: エンジン始動許可設定、内容: エンジン: 始動禁止、有効時間（分）: 60');
    expect(detailText({})).toBe('');
    expect(detailText({ unknown_key: null })).toBe('unknown_key: —');
  });
});
