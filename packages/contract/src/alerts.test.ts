import { describe, expect, it } from 'vitest';
import { ALERT_ACK_MAX, alertAckMany, alertList } from './alerts.js';
import { MAX_PAGE_SIZE, PAGE_SIZE } from './list.js';

const issues = (
  schema: {
    safeParse(v: unknown): { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } };
  },
  v: unknown,
) => {
  const r = schema.safeParse(v);
  return r.success ? {} : Object.fromEntries(r.error!.issues.map((i) => [i.path.join('.'), i.message]));
};

describe('alert_list request', () => {
  it('pages like the other lists and keeps the old body working', () => {
    expect(alertList.request.parse({})).toMatchObject({
      offset: 0,
      limit: PAGE_SIZE,
      search_text: '',
      unacknowledged: false,
      from: null,
      to: null,
    });
    expect(alertList.request.parse({ kind: 'zone_enter', search_text: '品川', offset: 40, limit: 20 })).toMatchObject({
      kind: 'zone_enter',
      search_text: '品川',
      offset: 40,
    });
  });

  it('refuses a bad kind, page and a range with one end, in Japanese on the field', () => {
    expect(issues(alertList.request, { kind: 'zone_party' })).toEqual({ kind: '入力内容が不正です' });
    expect(issues(alertList.request, { limit: MAX_PAGE_SIZE + 1, offset: -1 })).toMatchObject({
      limit: expect.any(String),
      offset: expect.any(String),
    });
    expect(issues(alertList.request, { from: '2026-12-01' })).toEqual({
      to: '開始日時と終了日時の両方を入力してください',
    });
    expect(issues(alertList.request, { to: '2026-12-01' })).toEqual({
      from: '開始日時と終了日時の両方を入力してください',
    });
    expect(issues(alertList.request, { search_text: 'x'.repeat(256) })).toEqual({ search_text: '入力が長すぎます' });
  });
});

describe('alert_ack_many request', () => {
  it('takes 1 to ALERT_ACK_MAX ids', () => {
    expect(alertAckMany.request.parse({ alert_ids: ['1', '22'] })).toEqual({ alert_ids: ['1', '22'] });
    const max = Array.from({ length: ALERT_ACK_MAX }, (_, i) => String(i + 1));
    expect(alertAckMany.request.parse({ alert_ids: max }).alert_ids).toHaveLength(ALERT_ACK_MAX);
  });

  it('refuses none, too many and malformed ids in Japanese', () => {
    expect(issues(alertAckMany.request, { alert_ids: [] })).toEqual({ alert_ids: 'アラートを選択してください' });
    const over = Array.from({ length: ALERT_ACK_MAX + 1 }, (_, i) => String(i + 1));
    expect(issues(alertAckMany.request, { alert_ids: over })).toEqual({
      alert_ids: `一度に確認済みにできるアラートは${ALERT_ACK_MAX}件までです`,
    });
    expect(issues(alertAckMany.request, { alert_ids: ['1', '0', 'abc'] })).toEqual({
      'alert_ids.1': '入力内容が不正です',
      'alert_ids.2': '入力内容が不正です',
    });
    expect(issues(alertAckMany.request, {})).toEqual({ alert_ids: '入力内容が不正です' });
  });
});
