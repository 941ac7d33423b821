import { describe, expect, it } from 'vitest';
import { connectionView } from './connection';

const now = new Date('2026-11-29T05:00:00Z');
const ago = (minutes: number) => new Date(now.getTime() - minutes * 60_000).toISOString();

describe('connectionView', () => {
  it('believes a connection state the terminal sends', () => {
    expect(connectionView({ connection: 'disconnected', last_seen_at: ago(0) }, now)).toEqual({ label: '切断中' });
    expect(connectionView({ connection: 'connected', last_seen_at: ago(90) }, now)).toEqual({ label: '接続中' });
  });
  it('reads it from the last report when the terminal sends none, and says so', () => {
    const recent = connectionView({ connection: null, last_seen_at: ago(0.2) }, now);
    expect(recent.label).toBe('接続中');
    expect(recent.hint).toContain('最終受信（1分以内）');
    const old = connectionView({ connection: null, last_seen_at: ago(45) }, now);
    expect(old).toEqual({ label: '切断中', hint: expect.stringContaining('45分前') });
  });
  it('is 状態不明 without any report', () => {
    expect(connectionView(null, now)).toEqual({ label: '状態不明' });
    expect(connectionView({ connection: null }, now)).toEqual({ label: '状態不明' });
  });
});
