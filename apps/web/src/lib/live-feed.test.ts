import { afterEach, describe, expect, it, vi } from 'vitest';
import { liveState } from '../testing/live-state';
import { flushLive, LIVE_FLUSH_MS, parseSnapshot, putLive, useLiveStore } from './live-feed';

describe('the live feed', () => {
  afterEach(() => {
    flushLive();
    vi.useRealTimers();
  });

  it('applies the states pushed in one burst as one store update, and at most one per frame', () => {
    vi.useFakeTimers();
    const updates = vi.fn();
    const stop = useLiveStore.subscribe(updates);
    const before = useLiveStore.getState();
    putLive([liveState('A1', 35.1), liveState('A2', 35.2)]);
    putLive([liveState('A1', 35.3)]);
    putLive([liveState('A3', 35.4)]);
    expect(updates).not.toHaveBeenCalled();
    expect(useLiveStore.getState().states.A1).toBeUndefined();
    vi.advanceTimersByTime(0); // after the events already received
    expect(updates).toHaveBeenCalledTimes(1);
    const after = useLiveStore.getState();
    expect(after.version).toBe(before.version + 1);
    expect(after.states.A1?.lat).toBe(35.3);
    expect(after.states.A3?.lat).toBe(35.4);
    // one object for the session, updated in place rather than copied per push
    expect(after.states).toBe(before.states);
    // pushes right after an update wait for the frame's time to pass, then go as one
    putLive([liveState('A2', 35.5)]);
    putLive([liveState('A4', 35.6)]);
    vi.advanceTimersByTime(LIVE_FLUSH_MS / 2);
    expect(updates).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(LIVE_FLUSH_MS / 2);
    stop();
    expect(updates).toHaveBeenCalledTimes(2);
    expect(useLiveStore.getState().states.A4?.lat).toBe(35.6);
  });

  it('keeps the good states of a snapshot and drops a bad one', () => {
    const bad = { ...liveState('B2', 35), lat: 'north' };
    const out = parseSnapshot({
      states: [liveState('B1', 35.1), bad, { ...liveState('B3', 35.3), last_seen_at: '2026-11-25T12:00:00+09:00' }],
    });
    expect(out.map((s) => s.car_data_id)).toEqual(['B1', 'B3']);
    expect(out[1]!.last_seen_at).toBe('2026-11-25T03:00:00.000Z');
    expect(parseSnapshot(null)).toEqual([]);
    expect(parseSnapshot({ states: 'x' })).toEqual([]);
  });
});
