import { describe, expect, it } from 'vitest';
import { inWindows, mergeWindows, partSince, pushedPart, readsLatest, withinWindowsText } from './terminal-time.js';

const d = (s: string) => new Date(s);
const groups = [['position_at', 'lat', 'lng']] as const;

describe('the terminal-period rule', () => {
  it('merges touching periods and reads a period since ever as all of time', () => {
    expect(mergeWindows([{ from: null, to: null }])).toBeNull();
    expect(
      mergeWindows([
        { from: d('2026-01-01T00:00:00Z'), to: d('2026-02-01T00:00:00Z') },
        { from: d('2026-02-01T00:00:00Z'), to: null },
      ]),
    ).toEqual([{ from: d('2026-01-01T00:00:00Z'), to: null }]);
  });

  it('a record belongs to a window from its start up to, not including, its end', () => {
    const w = [{ from: d('2026-01-01T00:00:00Z'), to: d('2026-02-01T00:00:00Z') }];
    expect(inWindows(d('2026-01-01T00:00:00Z'), w)).toBe(true);
    expect(inWindows(d('2026-02-01T00:00:00Z'), w)).toBe(false);
    expect(inWindows(d('2020-01-01T00:00:00Z'), null)).toBe(true);
    expect(withinWindowsText([], (x) => x.toISOString())).toBe(' AND false');
    expect(withinWindowsText(null, (x) => x.toISOString())).toBe('');
  });

  it('the latest state is the reader’s only when reported within a window still open', () => {
    const closed = [{ from: null, to: d('2026-02-01T00:00:00Z') }];
    const open = [{ from: d('2026-02-01T00:00:00Z'), to: null }];
    const state = { recorded_at: '2026-01-15T00:00:00Z', last_seen_at: '2026-01-15T00:00:00Z' };
    expect(readsLatest(state, closed)).toBe(false);
    expect(readsLatest(state, open)).toBe(false);
    expect(readsLatest({ ...state, recorded_at: '2026-02-02T00:00:00Z' }, open)).toBe(true);
  });

  it('masks a field group reported before the period, and pushes a record to its owner only', () => {
    const r = {
      recorded_at: '2026-02-02T00:00:00Z',
      last_seen_at: '2026-02-02T00:00:00Z',
      position_at: '2026-01-31T00:00:00Z',
      lat: 35,
      lng: 139,
      owner_company_id: 'A',
      period_started_at: '2026-02-01T00:00:00Z',
    };
    expect(partSince(r, r.period_started_at, groups)).toMatchObject({ position_at: null, lat: null, lng: null });
    expect(pushedPart(r, 'B', groups)).toBeNull();
    expect(pushedPart(r, 'A', groups)).toMatchObject({ lat: null });
    expect(pushedPart(r, null, groups)).toBe(r);
  });
});
