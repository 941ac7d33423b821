import { describe, expect, it } from 'vitest';
import {
  connectionLabel,
  customerStateLabel,
  deviceStateLabel,
  engineCommandLabel,
  engineLineLabel,
  engineRunningLabel,
  errorStatusLabel,
  genderLabel,
  isManager,
  isSuperAdmin,
  paymentDelayLabel,
  roleLabel,
  startStopLabel,
} from './enums.js';

describe('labels of docs/product.md §4', () => {
  it('gender: 0 male, 1 female, anything else その他', () => {
    expect(genderLabel(0)).toBe('男性');
    expect(genderLabel(1)).toBe('女性');
    expect(genderLabel(2)).toBe('その他');
    expect(genderLabel(null)).toBe('その他');
  });
  it('customer state and payment delay', () => {
    expect([0, 1, 2, 3].map(customerStateLabel)).toEqual(['契約中', 'アカウント停止', '契約停止', '契約解除']);
    expect(paymentDelayLabel(0)).toBe('遅延なし');
    expect(paymentDelayLabel(3)).toBe('3ヶ月以上');
  });
  it('engine command and start/stop wording', () => {
    expect(engineCommandLabel(0)).toBe('エンジン始動許可');
    expect(engineCommandLabel(1)).toBe('エンジン始動禁止');
    expect(startStopLabel(0)).toBe('始動');
    expect(startStopLabel(1)).toBe('停止');
    expect(startStopLabel('x')).toBe('停止');
  });
  it('engine running state', () => {
    expect(engineRunningLabel('on')).toBe('走行中');
    expect(engineRunningLabel('off')).toBe('停止中');
    expect(engineRunningLabel(undefined)).toBe('状態不明');
  });
  it('engine line: connected or no value is 許可中, else 禁止中', () => {
    expect(engineLineLabel('connected')).toBe('許可中');
    expect(engineLineLabel(undefined)).toBe('許可中');
    expect(engineLineLabel('disconnected')).toBe('禁止中');
  });
  it('connection: connected 接続中, other 切断中, none 状態不明', () => {
    expect(connectionLabel('connected')).toBe('接続中');
    expect(connectionLabel('disconnected')).toBe('切断中');
    expect(connectionLabel(null)).toBe('状態不明');
  });
  it('device state: 0 正常, other エラー発生, none 状態不明', () => {
    expect(deviceStateLabel(0)).toBe('正常');
    expect(deviceStateLabel(1002)).toBe('エラー発生');
    expect(deviceStateLabel(undefined)).toBe('状態不明');
  });
  it('error status codes', () => {
    expect(errorStatusLabel(1100)).toBe('エンジン取り外し');
    expect(errorStatusLabel(1002)).toBe('データ取得失敗');
    expect(errorStatusLabel(7)).toContain('7');
  });
});

describe('roles of docs/product.md §6', () => {
  it('super admin is role 0 without a company', () => {
    expect(isSuperAdmin({ role: 0, company_id: null })).toBe(true);
    expect(isSuperAdmin({ role: 0, company_id: 'c1' })).toBe(false);
    expect(isSuperAdmin({ role: 1, company_id: null })).toBe(false);
    expect(roleLabel(0, null)).toBe('スーパー管理者');
    expect(roleLabel(2, 'c')).toBe('一般');
  });
  it('managers are roles 0 and 1', () => {
    expect([0, 1, 2].map((role) => isManager({ role }))).toEqual([true, true, false]);
  });
});
